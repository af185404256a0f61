// Driving the twin's Shopify stand-in (lib/local/fake-shopify.ts) from tests: a shop of the test's own, the OAuth
// install as a merchant's browser goes through it (install screen, "Install", Shopify's redirect back with the state
// cookie), the fake's controls (faults, a product's media, the operations it received, webhooks to send), and
// finished results to publish, stored as the generation workflow stores them.
import { randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { installAsMerchant, type FaultKind, type FakeProductSeed } from '../../lib/local/fake-shopify.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import type { TwinInfo } from './global-twin.js';
import type { TestUser } from './users.js';

export interface FakeShopSummary {
  shop: string;
  name: string;
  installed: boolean;
  tokens: number;
  products: { id: string; title: string; sku: string; media: { id: string; filename: string; alt: string | null; mediaContentType: string; status: string }[] }[];
  files: { id: string; filename: string; mediaContentType: string; status: string; errors: { code: string; message: string }[] }[];
}

export function shopifyStandIn(twin: TwinInfo): { standIn: string; demoShop: string } {
  if (!twin.shopify) throw new Error('This twin runs no Shopify stand-in');
  return twin.shopify;
}

async function control<T>(twin: TwinInfo, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${shopifyStandIn(twin).standIn}/_fake/${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`fake Shopify ${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** A shop of this test's own (a unique domain), with products. */
export async function newShop(twin: TwinInfo, products: FakeProductSeed[], options: { grantable?: string[]; name?: string } = {}): Promise<FakeShopSummary> {
  const shop = `test-${randomUUID().slice(0, 8)}.myshopify.com`;
  return control(twin, 'POST', 'shops', { shop, products, ...options });
}

export const shopState = (twin: TwinInfo, shop: string) => control<FakeShopSummary>(twin, 'GET', `shops/${shop}`);
export const injectFault = (twin: TwinInfo, fault: { shop?: string; operation: string; kind: FaultKind; times: number; after?: number }) => control(twin, 'POST', 'faults', fault);
export const setBucket = (twin: TwinInfo, shop: string, bucket: { maximumAvailable: number; restoreRate: number }) => control(twin, 'POST', `shops/${shop}/bucket`, bucket);
export const uninstallFromShop = (twin: TwinInfo, shop: string) => control(twin, 'POST', `shops/${shop}/uninstall`, {});
export const sendShopWebhook = (twin: TwinInfo, shop: string, topic: string, payload: unknown, tamper = false) =>
  control<{ status: number }>(twin, 'POST', `shops/${shop}/webhooks`, { topic, payload, tamper }).then((answer) => answer.status);
/** The GraphQL root fields the fake received for a shop, request by request. */
export const operationsOf = async (twin: TwinInfo, shop: string) => (await control<{ items: { fields: string[] }[] }>(twin, 'GET', `operations?shop=${encodeURIComponent(shop)}`)).items.map((item) => item.fields);

/**
 * Connects a shop as a seller's browser does (lib/local/fake-shopify.ts installAsMerchant); answers where the callback
 * sent the browser.
 */
export function installShop(twin: TwinInfo, user: TestUser, shop: string, options: { alterCallback?: (url: URL) => void; dropCookie?: boolean } = {}) {
  return installAsMerchant({ apiUrl: twin.apiUrl, idToken: user.idToken, shop, ...options });
}

/** A small finished result stored as the workflows store one (a history row and its file in the results bucket). */
export async function storedResult(
  twin: TwinInfo,
  user: TestUser,
  file: { bytes: Buffer; contentType: 'image/png' | 'image/jpeg' | 'video/mp4'; width: number; height: number; title: string; clothingItemId?: string; seconds?: number; operation?: 'packshot' | 'video' | 'batch' | 'on-model' },
): Promise<string> {
  const generationsRepo = await import('../../lambdas/data/generations-repo.js');
  const s3 = new S3Client({ endpoint: twin.env.AWS_ENDPOINT_URL_S3, region: twin.env.AWS_REGION, credentials: LOCAL_CREDENTIALS, forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' });
  const id = `res-${randomUUID().slice(0, 12)}`;
  const video = file.contentType === 'video/mp4';
  const key = `${user.sub}/generations/${id}.${video ? 'mp4' : file.contentType === 'image/png' ? 'png' : 'jpg'}`;
  await s3.send(new PutObjectCommand({ Bucket: twin.env.BUCKET_RESULTS!, Key: key, Body: file.bytes, ContentType: file.contentType }));
  const now = new Date().toISOString();
  const operation = file.operation ?? (video ? 'video' : 'packshot');
  await generationsRepo.createGeneration({
    user_id: user.sub,
    id,
    generation_type: operation === 'video' ? 'video' : operation === 'batch' ? 'batch' : 'image',
    operation,
    ai_model: 'preview-engine',
    status: 'complete',
    credits_used: 1,
    result_key: key,
    result_content_type: file.contentType,
    width: file.width,
    height: file.height,
    created_at: now,
    completed_at: now,
    params: video ? { duration: file.seconds ?? 5 } : {},
    title: file.title,
    ...(file.clothingItemId ? { clothing_item_id: file.clothingItemId } : {}),
  });
  return id;
}
