import { NavLink, useLocation } from 'react-router-dom';
import { cn } from '@/lib/cn';
import { paths } from '@/lib/paths';

/** The top bar's sections; /generate (the short sidebar's video screen) belongs to the Studio. */
const TABS = [
  { to: paths.videoGeneration, label: 'Studio', sections: [paths.studio, paths.generate] },
  { to: paths.api, label: 'API', sections: [paths.api] },
  { to: paths.dashboard, label: 'Dashboard', sections: [paths.dashboard, paths.settings] },
];

export function TopTabs() {
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
