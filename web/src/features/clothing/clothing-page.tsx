import type { ClothingItem } from '@contracts/api';
import { Images, Plus, Search, Shirt } from 'lucide-react';
import { useDeferredValue, useId, useMemo, useState, type ReactNode } from 'react';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input, Label, Select } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { useClothingItems } from '@/lib/clothing-items';
import { BatchUploadDialog } from './batch-upload-dialog';
import { ClothingCard, type ItemAction } from './clothing-card';
import { SORTS, visibleItems, type SortOrder } from './clothing-list';
import { DeleteItemDialog, EditItemDialog, ItemDetailsDialog } from './item-dialogs';
import { NewItemDialog } from './new-item-dialog';

type Open = { dialog: 'new' | 'batch' } | { dialog: ItemAction; item: ClothingItem } | undefined;

/** Clothing Manager (/studio/clothing): the caller's library of product photos. */
export default function ClothingPage() {
  const items = useClothingItems();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortOrder>('latest');
  const [open, setOpen] = useState<Open>();
  const deferredSearch = useDeferredValue(search);
  const ids = { search: useId(), sort: useId() };

  const all = useMemo(() => items.data ?? [], [items.data]);
  const shown = useMemo(() => visibleItems(all, deferredSearch, sort), [all, deferredSearch, sort]);
  const close = () => setOpen(undefined);
  const itemFor = (dialog: ItemAction) => (open && 'item' in open && open.dialog === dialog ? open.item : undefined);
  const addButtons = (
    <>
      <Button variant="outline" onClick={() => setOpen({ dialog: 'batch' })}>
        <Images className="h-4 w-4" aria-hidden="true" /> Batch Upload
      </Button>
      <Button onClick={() => setOpen({ dialog: 'new' })}>
        <Plus className="h-4 w-4" aria-hidden="true" /> New Item
      </Button>
    </>
  );

  return (
    <div className="space-y-6">
      <PageHeader title="Clothing Manager" description="Your library of product photos, ready for generation." actions={addButtons} />

      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Label htmlFor={ids.search}>Search</Label>
          <div className="relative">
            <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
            <Input
              id={ids.search}
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Search by name or description"
              className="pl-9"
            />
          </div>
        </div>
        <div className="sm:w-48">
          <Label htmlFor={ids.sort}>Sort by</Label>
          <Select id={ids.sort} value={sort} onChange={(event) => setSort(event.target.value as SortOrder)}>
            {SORTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </div>
      </div>

      <p className="text-sm text-slate-700" aria-live="polite" data-testid="clothing-count">
        {items.data ? `Showing ${shown.length} of ${all.length} items` : '\u00a0'}
      </p>

      {items.isPending ? (
        <div className="flex justify-center py-16 text-brand-600">
          <Spinner className="h-8 w-8" label="Loading clothing items…" />
        </div>
      ) : items.isError ? (
        <EmptyState title="Failed to load clothing items" text="Your items could not be loaded right now.">
          <Button variant="outline" onClick={() => void items.refetch()} busy={items.isFetching}>
            Try again
          </Button>
        </EmptyState>
      ) : all.length === 0 ? (
        <EmptyState title="No clothing items yet" text="Upload product photos to use them in your generations.">
          {addButtons}
        </EmptyState>
      ) : shown.length === 0 ? (
        <EmptyState title="No items found" text="No item matches your search. Try another word." />
      ) : (
        <ul aria-label="Clothing items" className="grid grid-cols-2 gap-3 sm:gap-5 lg:grid-cols-3 xl:grid-cols-4">
          {shown.map((item) => (
            <li key={item.id}>
              <ClothingCard item={item} onAction={(dialog, target) => setOpen({ dialog, item: target })} />
            </li>
          ))}
        </ul>
      )}

      <NewItemDialog open={open?.dialog === 'new'} onOpenChange={(next) => setOpen(next ? { dialog: 'new' } : undefined)} />
      <BatchUploadDialog open={open?.dialog === 'batch'} onOpenChange={(next) => setOpen(next ? { dialog: 'batch' } : undefined)} />
      <ItemDetailsDialog item={itemFor('details')} onClose={close} />
      <EditItemDialog item={itemFor('edit')} onClose={close} />
      <DeleteItemDialog item={itemFor('delete')} onClose={close} />
    </div>
  );
}

function EmptyState({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-50">
        <Shirt className="h-7 w-7 text-brand-600" aria-hidden="true" />
      </span>
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      <p className="max-w-md text-slate-700">{text}</p>
      {children && <div className="mt-2 flex flex-wrap justify-center gap-2">{children}</div>}
    </Card>
  );
}
