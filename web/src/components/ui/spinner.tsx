import { cn } from '@/lib/cn';

/** A spinning ring. With a label it is announced as a status; pass label={null} inside an already-labelled control. */
export function Spinner({ className, label = 'Loading…' }: { className?: string; label?: string | null }) {
  const ring = (
    <svg className={cn('animate-spin text-current', className ?? 'h-6 w-6')} viewBox="0 0 24 24" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="10" stroke="currentColor" strokeOpacity="0.25" strokeWidth="4" />
      <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
  if (label === null) return ring;
  return (
    <span role="status" className="inline-flex items-center">
      {ring}
      <span className="sr-only">{label}</span>
    </span>
  );
}

export function PageSpinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="flex min-h-[50vh] w-full items-center justify-center text-brand-600">
      <Spinner className="h-8 w-8" label={label} />
    </div>
  );
}
