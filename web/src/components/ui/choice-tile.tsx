// One picture to choose in a radio group of pictures (the clothing library, past results, a product page's images):
// a radio button with a check mark on the chosen one. What it shows (the picture, a caption) is its children.
import { Check } from 'lucide-react';
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cn } from '@/lib/cn';

interface ChoiceTileProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'role' | 'aria-checked' | 'aria-label'> {
  selected: boolean;
  label: string;
  children: ReactNode;
}

export function ChoiceTile({ selected, label, className, children, ...button }: ChoiceTileProps) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={selected}
      aria-label={label}
      className={cn('relative overflow-hidden rounded-md border-2 bg-slate-100 text-left', selected ? 'border-brand-600' : 'border-transparent hover:border-slate-300', className)}
      {...button}
    >
      {children}
      {selected && (
        <span className="absolute right-1 top-1 rounded-full bg-brand-600 p-0.5 text-white">
          <Check className="h-3 w-3" aria-hidden="true" />
        </span>
      )}
    </button>
  );
}
