// How a deployment configures its Shopify app, besides the two secrets (lambdas/core/secrets.ts): read by the app
// (app.ts), set by CDK (lib/constructs/shopify.ts) and the twin (lib/local/twin.ts); and the addresses it hands out.
// No library here.

/** The web app's origin (e.g. https://d123.cloudfront.net): where Shopify sends the merchant back. */
export const SHOPIFY_APP_URL_ENV = 'SHOPIFY_APP_URL';
/**
 * Tests and the twin only: the origin of a stand-in for Shopify (lib/local/fake-shopify.ts) that every request of the
 * integration goes to instead (app.ts). The cloud never sets it.
 */
export const SHOPIFY_STAND_IN_ENV = 'SHOPIFY_STAND_IN_ORIGIN';

/** `https://<host>/<path>` as this deployment reaches it: itself, or through the stand-in. */
export function shopifyUrl(url: string, standIn = process.env[SHOPIFY_STAND_IN_ENV]): string {
  if (!standIn || !url.startsWith('https://')) return url;
  const parsed = new URL(url);
  return `${standIn.replace(/\/$/, '')}/${parsed.host}${parsed.pathname}${parsed.search}`;
}

/** A shop's admin: `https://<shop>/admin` redirects to its page on admin.shopify.com. */
export const shopAdminUrl = (shop: string, path = '') => shopifyUrl(`https://${shop}/admin${path}`);
/** A product's page in the shop admin, by its global id. */
export const productAdminUrl = (shop: string, productGid: string) => shopAdminUrl(shop, `/products/${productGid.split('/').pop()}`);
