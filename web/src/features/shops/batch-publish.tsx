// "Publish to Shopify" for a finished batch: each entry's photos go to the product chosen for it, offered first the
// product its library item was last published to; then the publication is followed until it ends.
import type { Batch } from '@contracts/batch';
import { Store } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Button, ButtonLink } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/lib/paths';
import { useProductMatches, usePublish, useShopifyEnabled, useShops } from './api';
import { PublicationProgress } from './publish-dialog';
import { ProductPicker, type ChosenProduct } from './product-picker';

interface Entry {
  index: number;
  name: string;
  clothingItemId: string | null;
  generationIds: string[];
}

export function PublishBatch({ batch }: { batch: Batch }) {
  const enabled = useShopifyEnabled();
  const [open, setOpen] = useState(false);
  const made = batch.photos?.some((photo) => photo.generation.status === 'complete') ?? false;
  if (!enabled || !made) return null;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Store className="h-4 w-4" aria-hidden="true" /> Publish to Shopify
      </Button>
      {open && <PublishBatchDialog batch={batch} />}
    </Dialog>
  );
}

function PublishBatchDialog({ batch }: { batch: Batch }) {
  const shops = useShops();
  const shop = shops.data?.items.find((candidate) => candidate.status === 'connected')?.shop;
  const matches = useProductMatches(shop);
  const [chosen, setChosen] = useState<Record<number, ChosenProduct>>({});
  const [first, setFirst] = useState(false);
  const publish = usePublish();
  const firstId = useId();
  const entries = useMemo(() => entriesOf(batch), [batch]);

  if (publish.data) return <DialogContent title="Publishing to Shopify">{<PublicationProgress id={publish.data.id} />}</DialogContent>;
  if (shops.isPending) return <DialogContent title="Publish to Shopify">{<Spinner className="mt-4 h-5 w-5 text-brand-600" label="Loading your shops…" />}</DialogContent>;
  if (!shop) {
    return (
      <DialogContent title="Publish to Shopify" description="Connect your Shopify shop first.">
        <ButtonLink to={`${paths.settings}#shops`} size="sm" className="mt-4">
          Connect a shop
        </ButtonLink>
      </DialogContent>
    );
  }
  const remembered = (entry: Entry): ChosenProduct | undefined => {
    const match = entry.clothingItemId ? matches.data?.items.find((item) => item.clothing_item_id === entry.clothingItemId) : undefined;
    return match && { id: match.product_id, title: match.product_title };
  };
  const productOf = (entry: Entry) => chosen[entry.index] ?? remembered(entry);
  const files = entries.flatMap((entry) => {
    const product = productOf(entry);
    return product ? entry.generationIds.map((generationId) => ({ generationId, productId: product.id })) : [];
  });
  return (
    <DialogContent title="Publish the batch to Shopify" description="Each item’s photos go to its product." className="max-w-2xl">
      <form
        className="mt-4 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (files.length) publish.mutate({ shop, files, placement: first ? 'first' : 'last' });
        }}
      >
        <ol className="max-h-[60vh] space-y-4 overflow-y-auto pr-1" aria-label="Items">
          {entries.map((entry) => (
            <li key={entry.index} className="rounded-lg border border-slate-200 p-3">
              <ProductPicker
                shop={shop}
                label={`${entry.name} (${entry.generationIds.length} ${entry.generationIds.length === 1 ? 'photo' : 'photos'})`}
                value={productOf(entry)}
                onChange={(product) => setChosen((previous) => ({ ...previous, [entry.index]: product }))}
              />
            </li>
          ))}
        </ol>
        <label htmlFor={firstId} className="flex items-center gap-2 text-sm text-slate-800">
          <input id={firstId} type="checkbox" checked={first} onChange={(event) => setFirst(event.target.checked)} className="h-4 w-4 rounded border-slate-300" />
          Add them as the first images
        </label>
        {publish.isError && (
          <p role="alert" className="text-sm text-red-700">
            {publish.error.message}
          </p>
        )}
        <div className="flex justify-end">
          <Button type="submit" disabled={files.length === 0} busy={publish.isPending}>
            Publish {files.length} {files.length === 1 ? 'photo' : 'photos'}
          </Button>
        </div>
      </form>
    </DialogContent>
  );
}

/** The batch's entries that have finished photos, in order. */
function entriesOf(batch: Batch): Entry[] {
  const entries = new Map<number, Entry>();
  for (const photo of batch.photos ?? []) {
    if (photo.generation.status !== 'complete') continue;
    const entry = entries.get(photo.entryIndex) ?? { index: photo.entryIndex, name: photo.clothingItemName, clothingItemId: photo.clothingItemId, generationIds: [] };
    entry.generationIds.push(photo.generation.id);
    entries.set(photo.entryIndex, entry);
  }
  return [...entries.values()].sort((a, b) => a.index - b.index);
}
