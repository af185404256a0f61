// Shopify's webhooks to the app: app/uninstalled and the three mandatory compliance topics ("Privacy law compliance",
// shopify.dev/docs/apps/build/compliance/privacy-law-compliance, read 2026-11-27: POST with a JSON body; "If a
// mandatory compliance webhook sends a request with an invalid Shopify HMAC header, then the app must return a 401
// Unauthorized HTTP status"). Each is checked by the library's webhooks.validate: X-Shopify-Hmac-Sha256 is the base64
// HMAC-SHA256 of the raw body keyed with the app's client secret, and the topic, shop domain, API version and webhook
// id headers must be there. Every topic is safe to receive twice.
//
// What each does with what ModelLoop stores of a shop (its connection, its publications and matches, the places
// results were published to):
//   app/uninstalled         the connection ends ('uninstalled'): its tokens are deleted; the seller sees "connect again".
//   customers/data_request  ModelLoop stores no data about a shop's customers: the request is recorded, nothing is sent.
//   customers/redact        likewise: recorded, nothing to erase.
//   shop/redact             (48 hours after an uninstall) everything of the shop is erased: the connection, the
//                           publications to it, the matches, and the links on the results.
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { log } from '../../core/log.js';
import { forgetPublishedPlaces } from '../../data/generations-repo.js';
import { deleteShopRecords, listShopPublications } from '../../data/publications-repo.js';
import { deleteShop, endConnection, getShop, recordCompliance } from '../../data/shops-repo.js';
import { shopifyApp } from './app.js';

/** What ModelLoop answers a request about a customer: it holds nothing about any shop's customers. */
export const NO_CUSTOMER_DATA = 'ModelLoop stores no data about this shop’s customers: nothing to report or erase.';

export async function receiveShopifyWebhook(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> {
  const shopify = await shopifyApp();
  const rawBody = event.body === undefined ? '' : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8').toString('utf8');
  const rawRequest = new Request(`https://${event.requestContext?.domainName ?? 'localhost'}${event.rawPath ?? '/'}`, { method: 'POST', headers: event.headers as Record<string, string> });
  const check = await shopify.webhooks.validate({ rawBody, rawRequest });
  if (!check.valid) {
    log.warn('shopify webhook refused', { reason: check.reason });
    return answer(401, { error: 'The webhook signature is not valid.', code: 'INVALID_HMAC' });
  }
  const { topic, domain: shop, webhookId } = check;
  const at = new Date().toISOString();
  switch (topic) {
    case 'APP_UNINSTALLED': {
      const record = await endConnection(shop, 'uninstalled', at);
      log.info('shopify app uninstalled', { shop, known: Boolean(record) });
      break;
    }
    case 'CUSTOMERS_DATA_REQUEST':
    case 'CUSTOMERS_REDACT':
      await recordCompliance({ webhookId, topic, shop, received_at: at, outcome: NO_CUSTOMER_DATA });
      break;
    case 'SHOP_REDACT': {
      const erased = await eraseShop(shop);
      await recordCompliance({ webhookId, topic, shop, received_at: at, outcome: `Erased the shop's connection and ${erased} record(s) of its publications.` });
      log.info('shopify shop erased', { shop, records: erased });
      break;
    }
    default:
      log.info('shopify webhook ignored', { topic, shop });
  }
  return answer(200, { received: true });
}

/** Everything ModelLoop stores of a shop, gone: the links on the results, the publications and matches, the connection. */
export async function eraseShop(shop: string): Promise<number> {
  const record = await getShop(shop);
  if (!record) return 0;
  const publications = await listShopPublications(record.user_id, shop);
  const generationIds = new Set(publications.flatMap((publication) => publication.files.map((file) => file.generation_id)));
  for (const generationId of generationIds) await forgetPublishedPlaces(record.user_id, generationId, shop);
  const erased = await deleteShopRecords(record.user_id, shop);
  await deleteShop(shop);
  return erased;
}

function answer(statusCode: number, body: unknown): APIGatewayProxyResultV2 {
  return { statusCode, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify(body) };
}
