// "Publish to Shopify" for one finished result: the shop (when there are several), the product, "Add as the first
// image", then the publication followed until it ends, with a link to the product in the shop admin.
import type { Publication } from '@contracts/shopify';
import { ExternalLink } from 'lucide-react';
import { useId, useState } from 'react';
import { Button, ButtonLink } from '@/components/ui/button';
import { DialogContent } from '@/components/ui/dialog';
import { Label, Select } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/lib/paths';
import { usePublication, usePublish, useShops } from './api';
import { ProductPicker, type ChosenProduct } from './product-picker';

export function PublishResultDialog({ generationId, title }: { generationId: string; title: string }) {
  const shops = useShops();
  const connected = shops.data?.items.filter((shop) => shop.status === 'connected') ?? [];
  const [chosenShop, setChosenShop] = useState<string>();
  const shop = chosenShop ?? connected[0]?.shop;
  const [product, setProduct] = useState<ChosenProduct>();
  const [first, setFirst] = useState(false);
  const publish = usePublish();
  const shopSelectId = useId();
  const firstId = useId();

  if (publish.data) return <DialogContent title="Publishing to Shopify">{<PublicationProgress id={publish.data.id} />}</DialogContent>;

  return (
    <DialogContent title="Publish to Shopify" description={`Adds “${title}” to a product’s media.`}>
      {shops.isPending ? (
        <Spinner className="mt-4 h-5 w-5 text-brand-600" label="Loading your shops…" />
      ) : !shop ? (
        <div className="mt-4 space-y-3 text-sm text-slate-700">
          <p>Connect your Shopify shop first.</p>
          <ButtonLink to={`${paths.settings}#shops`} size="sm">
            Connect a shop
          </ButtonLink>
        </div>
      ) : (
        <form
          className="mt-4 space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (product) publish.mutate({ shop, files: [{ generationId, productId: product.id }], placement: first ? 'first' : 'last' });
          }}
        >
          {connected.length > 1 && (
            <div>
              <Label htmlFor={shopSelectId}>Shop</Label>
              <Select id={shopSelectId} value={shop} onChange={(event) => {
                setChosenShop(event.target.value);
                setProduct(undefined);
              }}>
                {connected.map((option) => (
                  <option key={option.shop} value={option.shop}>
                    {option.name}
                  </option>
                ))}
              </Select>
            </div>
          )}
          <ProductPicker shop={shop} value={product} onChange={setProduct} />
          <label htmlFor={firstId} className="flex items-center gap-2 text-sm text-slate-800">
            <input id={firstId} type="checkbox" checked={first} onChange={(event) => setFirst(event.target.checked)} className="h-4 w-4 rounded border-slate-300" />
            Add as the first image
          </label>
          {publish.isError && (
            <p role="alert" className="text-sm text-red-700">
              {publish.error.message}
            </p>
          )}
          <div className="flex justify-end">
            <Button type="submit" disabled={!product} busy={publish.isPending}>
              Publish
            </Button>
          </div>
        </form>
      )}
    </DialogContent>
  );
}

/** A publication while it runs (live), then what became of each file, with links to the products. */
export function PublicationProgress({ id }: { id: string }) {
  const publication = usePublication(id);
  if (!publication.data) return <Spinner className="mt-4 h-5 w-5 text-brand-600" label="Publishing…" />;
  return <PublicationSummary publication={publication.data} />;
}

function PublicationSummary({ publication }: { publication: Publication }) {
  const total = publication.files.length;
  const products = [...new Map(publication.files.filter((file) => file.admin_url).map((file) => [file.product_id, file])).values()];
  const failures = publication.files.filter((file) => file.status === 'failed');
  return (
    <div className="mt-4 space-y-3 text-sm" aria-live="polite">
      {publication.status === 'publishing' ? (
        <p className="flex items-center gap-2 font-medium text-slate-900">
          <Spinner className="h-4 w-4" label={null} /> Publishing {publication.published + publication.failed + 1 > total ? total : publication.published + publication.failed + 1} of {total}…
        </p>
      ) : (
        <p className="font-medium text-slate-900" data-testid="publication-outcome">
          {publication.failed === 0 ? `Published ${publication.published} of ${total} to Shopify.` : `Published ${publication.published} of ${total}; ${publication.failed} failed.`}
        </p>
      )}
      {products.length > 0 && (
        <ul className="space-y-1">
          {products.map((file) => (
            <li key={file.product_id}>
              <a href={file.admin_url!} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 font-medium text-brand-700 hover:underline">
                {file.product_title} in Shopify <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
              </a>
            </li>
          ))}
        </ul>
      )}
      {failures.length > 0 && (
        <ul role="alert" className="space-y-1 text-red-700">
          {failures.map((file) => (
            <li key={`${file.generation_id} ${file.product_id}`}>
              {file.product_title}: {file.error}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
