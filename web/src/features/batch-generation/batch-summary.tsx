// The composed batch before it is sent: its entries (each with its picture, prompt, backdrop, angles and product
// type, which can still be changed), the photo count, the total against the balance, and Generate Batch.
import type { ProductType } from '@contracts/catalog';
import { MARKETPLACE_NAMES } from '@contracts/marketplace';
import { Coins, Layers, Trash2, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatCredits } from '@/lib/format';
import { PRODUCT_LABELS, PRODUCT_TYPE_OPTIONS } from '@/lib/product-types';
import type { BatchItem } from './api';

export interface BatchSummaryProps {
  draft: BatchItem[];
  pictureOf: (entry: BatchItem) => string | null | undefined;
  photoCount: number;
  totalCredits: number | undefined;
  credits: number | undefined;
  sending: boolean;
  onProductTypeChange: (id: string, productType: ProductType) => void;
  onRemove: (id: string) => void;
  onClear: () => void;
  onSubmit: () => void;
}

export function BatchSummary({ draft, pictureOf, photoCount, totalCredits, credits, sending, onProductTypeChange, onRemove, onClear, onSubmit }: BatchSummaryProps) {
  return (
    <Card>
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle>Batch summary</CardTitle>
        <Button variant="ghost" size="sm" onClick={onClear} disabled={draft.length === 0}>
          <Trash2 className="h-4 w-4" aria-hidden="true" /> Clear all
        </Button>
      </CardHeader>
      <CardContent className="space-y-4">
        {draft.length === 0 ? (
          <p className="text-sm text-slate-700">No entries yet. Choose an item or a past result and its camera angles, then add them to the batch.</p>
        ) : (
          <ul className="space-y-2" aria-label="Batch entries">
            {draft.map((entry, index) => (
              <DraftEntry
                key={entry.id}
                entry={entry}
                position={index + 1}
                picture={pictureOf(entry)}
                onProductTypeChange={(productType) => onProductTypeChange(entry.id, productType)}
                onRemove={() => onRemove(entry.id)}
              />
            ))}
          </ul>
        )}
        <div className="space-y-1 border-t border-slate-200 pt-3 text-sm text-slate-800">
          <p>
            Photos: <strong data-testid="batch-photo-count">{photoCount}</strong>
          </p>
          <p className="flex items-center gap-2">
            <Coins className="h-4 w-4 text-amber-600" aria-hidden="true" />
            Total: <strong data-testid="batch-total-credits">{formatCredits(totalCredits)}</strong>
            {credits !== undefined && <span>· You have {formatCredits(credits)}</span>}
          </p>
        </div>
        <Button size="lg" className="w-full" onClick={onSubmit} busy={sending}>
          <Layers className="h-4 w-4" aria-hidden="true" /> Generate Batch
        </Button>
      </CardContent>
    </Card>
  );
}

function DraftEntry({
  entry,
  position,
  picture,
  onProductTypeChange,
  onRemove,
}: {
  entry: BatchItem;
  position: number;
  picture: string | null | undefined;
  onProductTypeChange: (productType: ProductType) => void;
  onRemove: () => void;
}) {
  return (
    <li data-testid="batch-entry" className="flex items-start gap-3 rounded-lg border border-slate-200 p-2">
      {picture ? <img src={picture} alt="" className="h-14 w-11 rounded bg-slate-100 object-cover" /> : <span className="h-14 w-11 rounded bg-slate-100" aria-hidden="true" />}
      <div className="min-w-0 flex-1 text-sm">
        <p className="break-words font-medium text-slate-900">{entry.clothingItemName}</p>
        {entry.modelId ? (
          <p className="line-clamp-2 break-words text-slate-700" data-testid="batch-entry-model" title={entry.modelDescription}>
            Model: {entry.modelName}
            {entry.modelDescription && ` · ${entry.modelDescription}`}
          </p>
        ) : (
          <p className="line-clamp-2 break-words text-slate-700">{entry.prompt}</p>
        )}
        <label className="mt-1 flex items-center gap-2 text-slate-700">
          <span className="text-xs">Product type</span>
          <select
            aria-label={`Product type of entry ${position} (${entry.clothingItemName})`}
            value={entry.productType ?? 'clothing'}
            onChange={(event) => onProductTypeChange(event.target.value as ProductType)}
            className="rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs"
          >
            {PRODUCT_TYPE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {PRODUCT_LABELS[option.value]}
              </option>
            ))}
          </select>
        </label>
        <p className="flex flex-wrap items-center gap-1 text-slate-700">
          <span className="inline-block h-3 w-3 rounded-full border border-slate-300" style={{ backgroundColor: entry.backdrop }} aria-hidden="true" />
          <span className="font-mono text-xs">{entry.backdrop}</span> · {entry.cameraAngles.join(', ')}
          {entry.marketplace && ` (${MARKETPLACE_NAMES[entry.marketplace]})`}
        </p>
      </div>
      <Button variant="ghost" size="icon" aria-label={`Remove entry ${position} (${entry.clothingItemName})`} onClick={onRemove}>
        <X className="h-4 w-4" aria-hidden="true" />
      </Button>
    </li>
  );
}
