import type { ClothingItem } from '@contracts/api';
import { Eye, ImageOff, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { LibraryCard } from '@/components/library/library-card';
import { tilePictureOf } from '@/lib/clothing-items';
import { formatDate } from '@/lib/format';

export type ItemAction = 'details' | 'edit' | 'delete';

export const usedTimes = (count: number) => (count === 1 ? 'Used once' : count === 0 ? 'Not used yet' : `Used ${count} times`);

/**
 * The item's picture, or a placeholder when it cannot be shown: its thumbnail on a tile, the original photo where it
 * is looked at (`original`, the details dialog).
 */
export function ItemImage({ item, className, original = false }: { item: ClothingItem; className?: string; original?: boolean }) {
  const [failedUrl, setFailedUrl] = useState<string>();
  const url = original ? item.signed_url : tilePictureOf(item);
  if (failedUrl === url) {
    return (
      <div className={`flex items-center justify-center bg-slate-100 text-slate-500 ${className ?? ''}`}>
        <ImageOff className="h-8 w-8" aria-hidden="true" />
        <span className="sr-only">The picture of {item.name} could not be loaded</span>
      </div>
    );
  }
  return (
    <img
      src={url}
      alt={item.name}
      loading="lazy"
      decoding="async"
      onError={() => setFailedUrl(url)}
      className={`bg-slate-100 object-cover ${className ?? ''}`}
    />
  );
}

export function ClothingCard({ item, onAction }: { item: ClothingItem; onAction: (action: ItemAction, item: ClothingItem) => void }) {
  return (
    <LibraryCard
      name={item.name}
      picture={
        <button
          type="button"
          className="block aspect-[3/4] w-full overflow-hidden focus-visible:outline-offset-[-2px]"
          onClick={() => onAction('details', item)}
          aria-label={`View details of ${item.name}`}
        >
          <ItemImage item={item} className="h-full w-full transition-transform duration-200 hover:scale-[1.02]" />
        </button>
      }
      description={item.description && <p className="mt-1 line-clamp-2 text-sm text-slate-700">{item.description}</p>}
      meta={`${formatDate(item.created_at)} · ${usedTimes(item.generations_count)}`}
      actions={[
        { label: 'View Details', Icon: Eye, onSelect: () => onAction('details', item) },
        { label: 'Edit', Icon: Pencil, onSelect: () => onAction('edit', item) },
        { label: 'Delete', Icon: Trash2, onSelect: () => onAction('delete', item), destructive: true },
      ]}
    />
  );
}
