import type { ClothingItem } from '@contracts/api';
import { Check } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';

/** The active items of the caller's library as pictures to pick one from (image and batch generation). */
export function LibraryPicker(props: {
  items: ClothingItem[] | undefined;
  loading: boolean;
  failed: boolean;
  selected: string | undefined;
  onSelect: (id: string) => void;
  /** The screen also takes an uploaded photo. */
  uploadHint?: boolean;
}) {
  if (props.loading) return <Spinner label="Loading clothing items…" />;
  if (props.failed) return <p className="text-sm text-slate-700">Failed to load clothing items</p>;
  if (!props.items?.length) {
    return (
      <p className="text-sm text-slate-700">
        No clothing items yet. Add some in the{' '}
        <Link to="/studio/clothing" className="font-medium text-brand-700 underline">
          Clothing Manager
        </Link>
        {props.uploadHint ? ', or upload a photo.' : '.'}
      </p>
    );
  }
  return (
    <div role="radiogroup" aria-label="Clothing items" className="grid max-h-80 grid-cols-3 gap-2 overflow-y-auto p-1 sm:grid-cols-4">
      {props.items.map((item) => {
        const selected = item.id === props.selected;
        return (
          <button
            key={item.id}
            type="button"
            role="radio"
            aria-checked={selected}
            aria-label={item.name}
            onClick={() => props.onSelect(item.id)}
            className={cn('relative overflow-hidden rounded-md border-2 bg-slate-100 text-left', selected ? 'border-brand-600' : 'border-transparent hover:border-slate-300')}
          >
            <img src={item.signed_url} alt="" className="aspect-[3/4] w-full object-cover" loading="lazy" />
            <span className="block truncate px-1.5 py-1 text-xs text-slate-800">{item.name}</span>
            {selected && (
              <span className="absolute right-1 top-1 rounded-full bg-brand-600 p-0.5 text-white">
                <Check className="h-3 w-3" aria-hidden="true" />
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
