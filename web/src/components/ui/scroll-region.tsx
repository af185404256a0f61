import { cn } from '@/lib/cn';
import type { ReactNode } from 'react';

/** Wide content (a table, a code sample) that scrolls sideways on small screens; focusable so keyboard users can scroll it too. */
export function ScrollRegion({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('overflow-x-auto rounded-md', className)} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
