// A finished result's "Publish to Shopify", and where it was published (links to the products in the shop admin):
// on its card and in History, through the ResultExtras slot (web/src/components/generation/result-extras.tsx).
import type { PublishedPlace } from '@contracts/generations';
import { ExternalLink, Store } from 'lucide-react';
import { useState } from 'react';
import type { ResultExtrasProps } from '@/components/generation/result-extras';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';
import { useGeneration } from '@/lib/generations';
import { PublishResultDialog } from './publish-dialog';

export default function ResultPublishing({ generationId, title, published, compact = false }: ResultExtrasProps) {
  const row = useGeneration(published === undefined || title === undefined ? generationId : undefined);
  const places = published ?? row.data?.published ?? [];
  const name = title ?? row.data?.title ?? 'This result';
  const [open, setOpen] = useState(false);
  return (
    <div className={cn('flex flex-col gap-2', compact ? 'items-end' : 'items-center')}>
      <Dialog open={open} onOpenChange={setOpen}>
        <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
          <Store className="h-4 w-4" aria-hidden="true" /> Publish to Shopify
        </Button>
        {open && <PublishResultDialog generationId={generationId} title={name} />}
      </Dialog>
      {places.length > 0 && <PublishedLinks places={places} />}
    </div>
  );
}

export function PublishedLinks({ places }: { places: PublishedPlace[] }) {
  return (
    <p className="text-sm text-slate-700" data-testid="published-to">
      Published to{' '}
      {places.map((place, index) => (
        <span key={`${place.shop} ${place.product_id}`}>
          {index > 0 && ', '}
          <a href={place.admin_url} target="_blank" rel="noreferrer" className="inline-flex items-center gap-0.5 font-medium text-brand-700 hover:underline">
            {place.product_title} <ExternalLink className="h-3 w-3" aria-hidden="true" />
          </a>
        </span>
      ))}
    </p>
  );
}
