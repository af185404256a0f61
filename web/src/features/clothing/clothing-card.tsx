import type { ClothingItem } from '@contracts/api';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Eye, ImageOff, MoreVertical, Pencil, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Card } from '@/components/ui/card';
import { formatDate } from '@/lib/format';

export type ItemAction = 'details' | 'edit' | 'delete';

const itemClass =
  'flex cursor-pointer select-none items-center gap-2 rounded-md px-2 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900';

export const usedTimes = (count: number) => (count === 1 ? 'Used once' : count === 0 ? 'Not used yet' : `Used ${count} times`);

/** The item's picture from its signed URL, or a placeholder when it cannot be shown. */
export function ItemImage({ item, className }: { item: ClothingItem; className?: string }) {
  const [failedUrl, setFailedUrl] = useState<string>();
  if (failedUrl === item.signed_url) {
    return (
      <div className={`flex items-center justify-center bg-slate-100 text-slate-500 ${className ?? ''}`}>
        <ImageOff className="h-8 w-8" aria-hidden="true" />
        <span className="sr-only">The picture of {item.name} could not be loaded</span>
      </div>
    );
  }
  return (
    <img
      src={item.signed_url}
      alt={item.name}
      loading="lazy"
      decoding="async"
      onError={() => setFailedUrl(item.signed_url)}
      className={`bg-slate-100 object-cover ${className ?? ''}`}
    />
  );
}

export function ClothingCard({ item, onAction }: { item: ClothingItem; onAction: (action: ItemAction, item: ClothingItem) => void }) {
  const titleId = useId();
  return (
    <Card className="flex h-full flex-col overflow-hidden" aria-labelledby={titleId} role="article">
      <button
        type="button"
        className="block aspect-[3/4] w-full overflow-hidden focus-visible:outline-offset-[-2px]"
        onClick={() => onAction('details', item)}
        aria-label={`View details of ${item.name}`}
      >
        <ItemImage item={item} className="h-full w-full transition-transform duration-200 hover:scale-[1.02]" />
      </button>
      <div className="flex flex-1 items-start gap-2 p-4">
        <div className="min-w-0 flex-1">
          <h3 id={titleId} className="truncate font-semibold text-slate-900" title={item.name}>
            {item.name}
          </h3>
          {item.description && <p className="mt-1 line-clamp-2 text-sm text-slate-700">{item.description}</p>}
          <p className="mt-2 text-xs text-slate-600">
            {formatDate(item.created_at)} · {usedTimes(item.generations_count)}
          </p>
        </div>
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger
            className="-mr-2 rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            aria-label={`Actions for ${item.name}`}
          >
            <MoreVertical className="h-4 w-4" aria-hidden="true" />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content align="end" sideOffset={4} className="z-40 min-w-44 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg">
              <DropdownMenu.Item className={itemClass} onSelect={() => onAction('details', item)}>
                <Eye className="h-4 w-4" aria-hidden="true" /> View Details
              </DropdownMenu.Item>
              <DropdownMenu.Item className={itemClass} onSelect={() => onAction('edit', item)}>
                <Pencil className="h-4 w-4" aria-hidden="true" /> Edit
              </DropdownMenu.Item>
              <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
              <DropdownMenu.Item
                className={`${itemClass} text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800`}
                onSelect={() => onAction('delete', item)}
              >
                <Trash2 className="h-4 w-4" aria-hidden="true" /> Delete
              </DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </div>
    </Card>
  );
}
