import * as Collapsible from '@radix-ui/react-collapsible';
import { ChevronDown, LayoutDashboard, Lock, Palette, Sparkles, Video } from 'lucide-react';
import { useState, type MouseEvent } from 'react';
import { toast } from 'sonner';
import { COMING_SOON_TOOLS, comingSoonMessage } from './coming-soon-tools';
import { ShellFrame } from './shell-frame';
import { SidebarLink, type SidebarItem } from './sidebar-link';
import { TopTabs } from './top-tabs';
import { paths } from '@/lib/paths';

const MAIN: SidebarItem[] = [
  { to: paths.dashboard, label: 'Dashboard', icon: LayoutDashboard },
  { to: paths.generate, label: 'Image to Video Generation', icon: Video },
  // The way on to Clothing, Images, Edit, Upscale and the rest of the studio.
  { to: paths.clothing, label: 'Studio', icon: Palette },
];

function announceComingSoon(event: MouseEvent<HTMLAnchorElement>, tool: string) {
  event.preventDefault();
  toast('Coming Soon', { description: comingSoonMessage(tool) });
}

function DashboardSidebar() {
  const [open, setOpen] = useState(false);
  return (
    <nav aria-label="Dashboard" className="flex flex-col gap-1 px-3 py-4">
      <ul className="space-y-0.5">
        {MAIN.map((item) => (
          <li key={item.to}>
            <SidebarLink item={item} />
          </li>
        ))}
      </ul>
      <Collapsible.Root open={open} onOpenChange={setOpen} className="mt-4">
        <Collapsible.Trigger className="flex w-full items-center justify-between rounded-lg px-3 py-2 text-left text-sm font-semibold text-slate-800 hover:bg-slate-100">
          <span className="flex items-center gap-3">
            <Sparkles className="h-4 w-4 text-brand-600" aria-hidden="true" />
            More Tools Coming Soon
          </span>
          <ChevronDown className={open ? 'h-4 w-4 rotate-180 transition-transform' : 'h-4 w-4 transition-transform'} aria-hidden="true" />
        </Collapsible.Trigger>
        <Collapsible.Content>
          <ul className="mt-1 space-y-0.5 pl-3">
            {COMING_SOON_TOOLS.map((tool) => (
              <li key={tool}>
                <a
                  href={paths.comingSoon}
                  aria-disabled="true"
                  onClick={(event) => announceComingSoon(event, tool)}
                  className="flex items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm text-slate-600 hover:bg-slate-50"
                >
                  <span>{tool}</span>
                  <span className="flex items-center gap-1 text-xs font-medium text-slate-600">
                    <Lock className="h-3 w-3" aria-hidden="true" /> Soon
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </Collapsible.Content>
      </Collapsible.Root>
    </nav>
  );
}

/** The dashboard's frame: Dashboard, Image to Video Generation, Studio, the coming-soon tools, and the top bar's tabs. */
export default function AppShell() {
  return <ShellFrame sidebar={<DashboardSidebar />} topBar={<TopTabs />} />;
}
