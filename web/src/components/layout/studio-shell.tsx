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
import { NavLink, useLocation } from 'react-router-dom';
import { cn } from '@/lib/cn';
import { ShellFrame } from './shell-frame';
import { SidebarGroup, type SidebarItem } from './sidebar-link';

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

const TABS = [
  { to: '/studio/generate/video-generation', label: 'Studio', sections: ['/studio'] },
  { to: '/api', label: 'API', sections: ['/api'] },
  { to: '/dashboard', label: 'Dashboard', sections: ['/dashboard', '/settings'] },
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

function TopTabs() {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Sections">
      <ul className="flex gap-1">
        {TABS.map((tab) => {
          const active = tab.sections.some((section) => pathname.startsWith(section));
          return (
            <li key={tab.label}>
              <NavLink
                to={tab.to}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'inline-flex h-9 items-center rounded-lg px-3 text-sm font-medium',
                  active ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-100',
                )}
              >
                {tab.label}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The studio's frame: Content, Generation and Dashboard groups, and the Studio / API / Dashboard tabs. */
export default function StudioShell() {
  return <ShellFrame sidebar={<StudioSidebar />} topBar={<TopTabs />} />;
}
