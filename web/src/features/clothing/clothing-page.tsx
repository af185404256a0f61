import type { ClothingItem } from '@contracts/api';
import { Images, Plus, Shirt } from 'lucide-react';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { LibraryList, LibrarySearch, type LibraryTexts } from '@/components/library/library-list';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Label, Select } from '@/components/ui/field';
import { useClothingItems } from '@/lib/clothing-items';
import { BatchUploadDialog } from './batch-upload-dialog';
import { ClothingCard, type ItemAction } from './clothing-card';
import { SORTS, visibleItems, type SortOrder } from './clothing-list';
import { DeleteItemDialog, EditItemDialog, ItemDetailsDialog } from './item-dialogs';
import { NewItemDialog } from './new-item-dialog';

type Open = { dialog: 'new' | 'batch' } | { dialog: ItemAction; item: ClothingItem } | undefined;

const TEXTS: LibraryTexts = {
  plural: 'items',
  listLabel: 'Clothing items',
  loading: 'Loading clothing items…',
  failed: { title: 'Failed to load clothing items', text: 'Your items could not be loaded right now.' },
  empty: { title: 'No clothing items yet', text: 'Upload product photos to use them in your generations.' },
  noMatch: { title: 'No items found', text: 'No item matches your search. Try another word.' },
};

/** Clothing Manager (/studio/clothing): the caller's library of product photos. */
export default function ClothingPage() {
  const items = useClothingItems();
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortOrder>('latest');
  const [open, setOpen] = useState<Open>();
  const deferredSearch = useDeferredValue(search);
  const sortId = useId();

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
          <LibrarySearch value={search} onChange={setSearch} />
        </div>
        <div className="sm:w-48">
          <Label htmlFor={sortId}>Sort by</Label>
          <Select id={sortId} value={sort} onChange={(event) => setSort(event.target.value as SortOrder)}>
            {SORTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </div>
      </div>

      <LibraryList
        query={items}
        all={all}
        shown={shown}
        texts={TEXTS}
        Icon={Shirt}
        addActions={addButtons}
        countTestId="clothing-count"
        renderCard={(item) => <ClothingCard item={item} onAction={(dialog, target) => setOpen({ dialog, item: target })} />}
      />

      <NewItemDialog open={open?.dialog === 'new'} onOpenChange={(next) => setOpen(next ? { dialog: 'new' } : undefined)} />
      <BatchUploadDialog open={open?.dialog === 'batch'} onOpenChange={(next) => setOpen(next ? { dialog: 'batch' } : undefined)} />
      <ItemDetailsDialog item={itemFor('details')} onClose={close} />
      <EditItemDialog item={itemFor('edit')} onClose={close} />
      <DeleteItemDialog item={itemFor('delete')} onClose={close} />
    </div>
  );
}

