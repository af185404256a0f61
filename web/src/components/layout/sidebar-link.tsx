import type { LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { NavLink } from 'react-router-dom';
import { cn } from '@/lib/cn';

export interface SidebarItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

export function SidebarLink({ item }: { item: SidebarItem }) {
  return (
    <NavLink
      to={item.to}
      end
      className={({ isActive }) =>
        cn(
          'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium',
          isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
        )
      }
    >
      <item.icon className="h-4 w-4 shrink-0" aria-hidden="true" />
      {item.label}
    </NavLink>
  );
}

export function SidebarGroup({ title, items }: { title: string; items: readonly SidebarItem[] }) {
  const headingId = useId();
  return (
    <div className="px-3 py-3">
      {/* A label, not a heading: the screen's own h1 comes first in the heading outline. */}
      <p id={headingId} className="px-3 pb-2 text-xs font-semibold uppercase tracking-wide text-slate-600">
        {title}
      </p>
      <ul aria-labelledby={headingId} className="space-y-0.5">
        {items.map((item) => (
          <li key={item.to}>
            <SidebarLink item={item} />
          </li>
        ))}
      </ul>
    </div>
  );
}
