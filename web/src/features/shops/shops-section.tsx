// Settings → Shops: the connected Shopify shops (Disconnect), and "Connect Shopify", which sends the browser to
// Shopify's install screen; Shopify sends it back here with the outcome (?shopify=…), said once as a toast.
import { CONNECT_OUTCOME_PARAM, CONNECT_OUTCOMES, SHOPIFY_MESSAGES, type ConnectedShop, type ConnectOutcome } from '@contracts/shopify';
import { ExternalLink, Store } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { Input, Label } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { useConnectShop, useDisconnectShop, useShopifyEnabled, useShops } from './api';

export function ShopsSection() {
  if (!useShopifyEnabled()) return null;
  return <Shops />;
}

function Shops() {
  const shops = useShops();
  useConnectOutcome();
  return (
    <section id="shops" aria-labelledby="shops-title">
      <Card>
        <CardHeader>
          <CardTitle id="shops-title">Shops</CardTitle>
          <CardDescription>Publish your pictures and videos straight to your Shopify products.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          {shops.isPending ? (
            <Spinner className="h-5 w-5 text-brand-600" label="Loading your shops…" />
          ) : shops.isError ? (
            <p role="alert" className="text-sm text-red-700">
              Your shops could not be loaded. Please reload the page.
            </p>
          ) : shops.data.items.length > 0 ? (
            <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200" aria-label="Connected shops">
              {shops.data.items.map((shop) => (
                <ShopRow key={shop.shop} shop={shop} />
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-700">No shop connected yet.</p>
          )}
          <ConnectForm />
        </CardContent>
      </Card>
    </section>
  );
}

function ShopRow({ shop }: { shop: ConnectedShop }) {
  const disconnect = useDisconnectShop();
  const [open, setOpen] = useState(false);
  return (
    <li className="flex flex-wrap items-center gap-3 p-3">
      <Store className="h-5 w-5 text-slate-500" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-slate-900">{shop.name}</p>
        <p className="truncate text-sm text-slate-600">{shop.shop}</p>
      </div>
      {shop.status === 'connected' ? <Badge tone="success">Connected</Badge> : <Badge tone="warning">Uninstalled in Shopify</Badge>}
      <a href={shop.admin_url} target="_blank" rel="noreferrer" className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline">
        Open admin <ExternalLink className="h-3.5 w-3.5" aria-hidden="true" />
      </a>
      <Dialog open={open} onOpenChange={setOpen}>
        <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
          Disconnect
        </Button>
        <DialogContent role="alertdialog" title={`Disconnect ${shop.name}?`} description="ModelLoop is uninstalled from the shop and its access is deleted. What you published stays in the shop.">
          <div className="mt-6 flex justify-end gap-2">
            <DialogClose asChild>
              <Button variant="ghost">Cancel</Button>
            </DialogClose>
            <Button
              variant="destructive"
              busy={disconnect.isPending}
              onClick={() =>
                disconnect.mutate(shop.shop, {
                  onSuccess: () => {
                    setOpen(false);
                    toast.success(SHOPIFY_MESSAGES.disconnected);
                  },
                  onError: (error) => toast.error('Disconnect failed', { description: error.message }),
                })
              }
            >
              Disconnect
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </li>
  );
}

function ConnectForm() {
  const inputId = useId();
  const [shop, setShop] = useState('');
  const connect = useConnectShop();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate(shop);
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2" aria-label="Connect a Shopify shop">
      <div className="min-w-64 flex-1">
        <Label htmlFor={inputId}>Your Shopify shop</Label>
        <Input id={inputId} value={shop} onChange={(event) => setShop(event.target.value)} placeholder="my-shop.myshopify.com" autoComplete="off" aria-invalid={connect.isError} />
      </div>
      <Button type="submit" busy={connect.isPending} disabled={!shop.trim()}>
        Connect Shopify
      </Button>
      {connect.isError && (
        <p role="alert" className="w-full text-sm text-red-700">
          {connect.error.message}
        </p>
      )}
    </form>
  );
}

/** Shopify's redirect back here says how the install ended: told once, then the address is cleaned. */
function useConnectOutcome() {
  const { search, hash, pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(search);
    const outcome = params.get(CONNECT_OUTCOME_PARAM) as ConnectOutcome | null;
    if (!outcome || !(outcome in CONNECT_OUTCOMES)) return;
    if (outcome === 'connected') toast.success(CONNECT_OUTCOMES.connected);
    else toast.error('Shop not connected', { description: CONNECT_OUTCOMES[outcome] });
    params.delete(CONNECT_OUTCOME_PARAM);
    navigate({ pathname, search: params.toString(), hash }, { replace: true });
  }, [search, hash, pathname, navigate]);
}
