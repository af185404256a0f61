import {
  BarChart3,
  CreditCard,
  History,
  Image as ImageIcon,
  Layers,
  LayoutDashboard,
  LifeBuoy,
  Maximize2,
  Settings,
  Shirt,
  Store,
  Tag,
  UserRound,
  Users,
  Video,
  Wand2,
} from 'lucide-react';
import { ShellFrame } from './shell-frame';
import { SidebarGroup, type SidebarItem } from './sidebar-link';
import { TopTabs } from './top-tabs';
import { paths } from '@/lib/paths';

const CONTENT: SidebarItem[] = [
  { to: paths.clothing, label: 'Clothing', icon: Shirt },
  { to: paths.models, label: 'Models', icon: UserRound },
  { to: paths.generations, label: 'Generations', icon: History },
];
const GENERATION: SidebarItem[] = [
  { to: paths.imageGeneration, label: 'Images', icon: ImageIcon },
  { to: paths.edit, label: 'Edit', icon: Wand2 },
  { to: paths.upscale, label: 'Upscale', icon: Maximize2 },
  { to: paths.packshot, label: 'Packshot', icon: Store },
  { to: paths.videoGeneration, label: 'Videos', icon: Video },
  { to: paths.batchGeneration, label: 'Batch', icon: Layers },
];
const DASHBOARD: SidebarItem[] = [
  { to: paths.dashboard, label: 'Dashboard', icon: LayoutDashboard },
  { to: paths.settings, label: 'Settings', icon: Settings },
  { to: paths.billing, label: 'Billing', icon: CreditCard },
  { to: paths.usage, label: 'Usage', icon: BarChart3 },
  { to: paths.prices, label: 'Prices', icon: Tag },
];
const FOOTER: SidebarItem[] = [
  { to: paths.community, label: 'Community', icon: Users },
  { to: paths.support, label: 'Contact Support', icon: LifeBuoy },
];


function StudioSidebar() {
  return (
    <nav aria-label="Studio" className="flex flex-1 flex-col">
      <SidebarGroup title="Content" items={CONTENT} />
      <SidebarGroup title="Generation" items={GENERATION} />
      <SidebarGroup title="Dashboard" items={DASHBOARD} />
      <div className="mt-auto border-t border-slate-200">
        <SidebarGroup title="Help" items={FOOTER} />
      </div>
    </nav>
  );
}

/** The studio's frame: Content, Generation and Dashboard groups, and the Studio / API / Dashboard tabs. */
export default function StudioShell() {
  return <ShellFrame sidebar={<StudioSidebar />} topBar={<TopTabs />} />;
}
