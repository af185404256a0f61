// The demo studio's shop: on a twin that runs the Shopify stand-in, `--demo` connects demo@modelloop.local to the
// stand-in's demo shop through the same OAuth install a browser makes (lib/local/fake-shopify.ts), so a newcomer can
// publish to Shopify with no Shopify account. Once connected, a second run does nothing.
import { listShopsRoute } from '../../lambdas/contracts/shopify.js';
import type { ConnectedShop } from '../../lambdas/contracts/shopify.js';
import { installAsMerchant } from './fake-shopify.js';
import type { TwinInfo } from './twin.js';

/** Connects the demo shop unless it already is; answers its domain, or undefined when the twin runs a real Shopify app. */
export async function connectDemoShop(twin: Pick<TwinInfo, 'apiUrl' | 'shopify'>, idToken: string): Promise<string | undefined> {
  if (!twin.shopify) return undefined;
  const { demoShop } = twin.shopify;
  const listed = await fetch(`${twin.apiUrl}${listShopsRoute.path}`, { headers: { authorization: `Bearer ${idToken}` } });
  if (!listed.ok) throw new Error(`GET ${listShopsRoute.path} answered ${listed.status}`);
  const { items } = (await listed.json()) as { items: ConnectedShop[] };
  if (items.some((shop) => shop.shop === demoShop && shop.status === 'connected')) return demoShop;
  const { landedOn } = await installAsMerchant({ apiUrl: twin.apiUrl, idToken, shop: demoShop });
  const outcome = landedOn.searchParams.get('shopify');
  if (outcome !== 'connected') throw new Error(`connecting the demo shop ended '${outcome}'`);
  return demoShop;
}
