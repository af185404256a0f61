import { Link } from 'react-router-dom';
import { cn } from '@/lib/cn';
import { paths } from '@/lib/paths';

export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('h-8 w-8', className)} aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="#4f46e5" />
      <path
        d="M9 21c0-6 4-10 7-10s4 3 4 5-1 5-4 5-4-3-4-5 1-5 4-5 7 4 7 10"
        fill="none"
        stroke="#fff"
        strokeWidth="2.5"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** The brand, linking home. */
export function BrandLink({ className, to = paths.home, tone = 'dark' }: { className?: string; to?: string; tone?: 'dark' | 'light' }) {
  return (
    <Link
      to={to}
      className={cn('inline-flex items-center gap-2 rounded-md font-bold', tone === 'dark' ? 'text-slate-900' : 'text-white', className)}
    >
      <BrandMark />
      <span className="text-lg tracking-tight">ModelLoop</span>
    </Link>
  );
}
