// Finding a product to publish to, and the products each library item was last published to.
import type { ShopProduct } from '../../contracts/shopify.js';
import { adminRequest, PRODUCT_SEARCH } from './admin.js';
import { productAdminUrl, shopifyUrl } from './app.js';
import { routeError } from './publish.js';
import { connectedShop, offlineSession } from './tokens.js';

/** Products a search answers. */
export const PRODUCT_SEARCH_SIZE = 10;

/**
 * The search as Shopify's search syntax (shopify.dev/docs/api/usage/search-syntax, read 2026-11-27): every word in
 * the title (`title:*word*`, a prefix-and-suffix wildcard) or the whole text as a SKU (`sku:"…"`, quoted, with `"`
 * and `\` escaped). Characters the syntax reserves are left out of the title words.
 */
export function productSearchQuery(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const words = trimmed.split(/\s+/).map((word) => word.replace(/[^\p{L}\p{N}_.-]/gu, '')).filter(Boolean);
  const sku = `sku:"${trimmed.replace(/["\\]/g, (character) => `\\${character}`)}"`;
  return words.length ? `(${words.map((word) => `title:*${word}*`).join(' AND ')}) OR ${sku}` : sku;
}

type ProductNode = {
  id: string;
  title: string;
  handle: string;
  status: string;
  featuredMedia: { preview: { image: { url: string } | null } | null } | null;
  variants: { nodes: { sku: string | null }[] };
};

export async function searchProducts(userId: string, shop: string, text = ''): Promise<ShopProduct[]> {
  const session = await offlineSession(await connectedShop(userId, shop));
  let products: { nodes: ProductNode[] };
  try {
    ({ products } = await adminRequest<{ products: { nodes: ProductNode[] } }>(session, PRODUCT_SEARCH, { query: productSearchQuery(text), first: PRODUCT_SEARCH_SIZE }));
  } catch (error) {
    throw routeError(error);
  }
  return products.nodes.map((node) => ({
    id: node.id,
    title: node.title,
    handle: node.handle,
    status: node.status,
    skus: node.variants.nodes.map((variant) => variant.sku).filter((sku): sku is string => Boolean(sku)),
    image_url: thumbnailUrl(node.featuredMedia?.preview?.image?.url),
    admin_url: productAdminUrl(shop, node.id),
  }));
}

/** A product's thumbnail as the browser loads it (Shopify's CDN, or the stand-in). */
export const thumbnailUrl = (url: string | undefined | null) => (url ? shopifyUrl(url) : null);
