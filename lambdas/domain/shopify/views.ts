// What the API answers of shops and publications from what is stored (GET /shops, GET /publications, the matches,
// the publish.completed webhook's data). No Shopify call and no library here: the functions that only read stay
// without it.
import type { ConnectedShop, ProductMatch, Publication } from '../../contracts/shopify.js';
import { notFound } from '../../core/errors.js';
import { getPublication, listMatches, listPublications, type PublicationRecord } from '../../data/publications-repo.js';
import { listUserShops } from '../../data/shops-repo.js';
import { shopAdminUrl } from './settings.js';

/** The shops Settings lists: connected ones, and ones Shopify uninstalled (to connect again); not those the seller disconnected. */
export async function listShops(userId: string): Promise<ConnectedShop[]> {
  return (await listUserShops(userId)).flatMap((record) =>
    record.status === 'disconnected' ? [] : [{ shop: record.id, name: record.name, status: record.status, scopes: record.scopes, connected_at: record.connected_at, admin_url: shopAdminUrl(record.id) }],
  );
}

export async function productMatches(userId: string, shop: string): Promise<ProductMatch[]> {
  return (await listMatches(userId, shop)).map(({ clothing_item_id, product_id, product_title, image_url, updated_at }) => ({ clothing_item_id, product_id, product_title, image_url, updated_at }));
}

export function publicationView(record: PublicationRecord): Publication {
  const files = record.files.map((file) => ({
    generation_id: file.generation_id,
    product_id: file.product_id,
    product_title: file.product_title,
    status: file.status,
    error: file.error ?? null,
    admin_url: file.admin_url ?? null,
    media_id: file.status === 'published' ? (file.file_id ?? null) : null,
  }));
  return {
    id: record.id,
    shop: record.shop,
    status: record.status,
    placement: record.placement,
    created_at: record.created_at,
    completed_at: record.completed_at ?? null,
    files,
    published: files.filter((file) => file.status === 'published').length,
    failed: files.filter((file) => file.status === 'failed').length,
  };
}

export async function getPublicationView(userId: string, id: string): Promise<Publication> {
  const record = await getPublication(userId, id);
  if (!record) throw notFound('This publication was not found.');
  return publicationView(record);
}

export async function listPublicationViews(userId: string, limit: number): Promise<Publication[]> {
  return (await listPublications(userId, limit)).map(publicationView);
}
