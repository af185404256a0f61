// Publications as the API answers them (GET /publications, the publish.completed webhook's data). No Shopify call and
// no library here: the functions that only read publications (and the webhook deliveries) stay without it.
import type { Publication } from '../../contracts/shopify.js';
import { notFound } from '../../core/errors.js';
import { getPublication, listPublications, type PublicationRecord } from '../../data/publications-repo.js';

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
