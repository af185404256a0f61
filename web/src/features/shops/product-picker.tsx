// Finding the product to publish to: a search by title or SKU, each product with its thumbnail.
import type { ShopProduct } from '@contracts/shopify';
import { Check, Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Input, Label } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { useProductSearch } from './api';

/** Typing pauses this long before the shop is asked. */
const SEARCH_PAUSE_MS = 300;

export interface ChosenProduct {
  id: string;
  title: string;
}

export function ProductPicker({ shop, value, onChange, label = 'Product' }: { shop: string; value: ChosenProduct | undefined; onChange: (product: ChosenProduct) => void; label?: string }) {
  const inputId = useId();
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const products = useProductSearch(shop, search);
  return (
    <div className="space-y-2">
      <Label htmlFor={inputId}>{label}</Label>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-3 h-4 w-4 text-slate-500" aria-hidden="true" />
        <Input id={inputId} className="pl-9" type="search" placeholder="Search by title or SKU" value={text} onChange={(event) => setText(event.target.value)} />
      </div>
      {value && (
        <p className="text-sm text-slate-700" data-testid="chosen-product">
          Chosen: <strong>{value.title}</strong>
        </p>
      )}
      {products.isPending ? (
        <Spinner className="h-5 w-5 text-brand-600" label="Searching the shop…" />
      ) : products.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {products.error.message}
        </p>
      ) : products.data.items.length === 0 ? (
        <p className="text-sm text-slate-700">No product matches “{search}”.</p>
      ) : (
        <ul className="max-h-64 space-y-1 overflow-y-auto" aria-label="Products">
          {products.data.items.map((product) => (
            <li key={product.id}>
              <ProductOption product={product} selected={value?.id === product.id} onSelect={() => onChange({ id: product.id, title: product.title })} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ProductOption({ product, selected, onSelect }: { product: ShopProduct; selected: boolean; onSelect: () => void }) {
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-pressed={selected}
      className={cn(
        'flex w-full items-center gap-3 rounded-lg border px-2 py-1.5 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600',
        selected ? 'border-brand-600 bg-brand-50' : 'border-slate-200',
      )}
    >
      {product.image_url ? (
        <img src={product.image_url} alt="" className="h-10 w-10 shrink-0 rounded bg-slate-100 object-contain" loading="lazy" />
      ) : (
        <span className="h-10 w-10 shrink-0 rounded bg-slate-100" aria-hidden="true" />
      )}
      <span className="min-w-0 flex-1">
        <span className="block truncate font-medium text-slate-900">{product.title}</span>
        {product.skus.length > 0 && <span className="block truncate text-xs text-slate-600">SKU {product.skus.join(', ')}</span>}
      </span>
      {selected && <Check className="h-4 w-4 text-brand-600" aria-hidden="true" />}
    </button>
  );
}
