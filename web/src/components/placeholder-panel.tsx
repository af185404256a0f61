import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';

/** The body of a screen whose content arrives in a later release. */
export function PlaceholderPanel({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children?: ReactNode }) {
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-50">
        <Icon className="h-7 w-7 text-brand-600" aria-hidden="true" />
      </span>
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      {children && <div className="max-w-md text-slate-700">{children}</div>}
    </Card>
  );
}
