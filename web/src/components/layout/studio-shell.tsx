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
  Tag,
  UserRound,
  Users,
  Video,
  Wand2,
} from 'lucide-react';
import { ShellFrame } from './shell-frame';
import { SidebarGroup, type SidebarItem } from './sidebar-link';
import { TopTabs } from './top-tabs';

const CONTENT: SidebarItem[] = [
  { to: '/studio/clothing', label: 'Clothing', icon: Shirt },
  { to: '/studio/models', label: 'Models', icon: UserRound },
  { to: '/studio/generations', label: 'Generations', icon: History },
];
const GENERATION: SidebarItem[] = [
  { to: '/studio/generate/image-generation', label: 'Images', icon: ImageIcon },
  { to: '/studio/generate/edit', label: 'Edit', icon: Wand2 },
  { to: '/studio/generate/upscale', label: 'Upscale', icon: Maximize2 },
  { to: '/studio/generate/video-generation', label: 'Videos', icon: Video },
  { to: '/studio/generate/batch-generation', label: 'Batch', icon: Layers },
];
const DASHBOARD: SidebarItem[] = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/settings', label: 'Settings', icon: Settings },
  { to: '/dashboard/billing', label: 'Billing', icon: CreditCard },
  { to: '/dashboard/usage', label: 'Usage', icon: BarChart3 },
  { to: '/dashboard/prices', label: 'Prices', icon: Tag },
];
const FOOTER: SidebarItem[] = [
  { to: '/community', label: 'Community', icon: Users },
  { to: '/support', label: 'Contact Support', icon: LifeBuoy },
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
