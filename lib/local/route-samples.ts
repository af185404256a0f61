// The routes as the developer tools see them: a payload v2 event built by the local gateway's own builder, the
// sample request each route's contract carries (lambdas/contracts/<feature>.ts, placeholders filled in here), and the
// check of an event against the contract the route's handler is built from.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type * as z from 'zod';
import { IDEMPOTENCY_HEADER } from '../../lambdas/contracts/api.js';
import { fillPath } from '../../lambdas/contracts/route.js';
import { shopifyWebhookRoute } from '../../lambdas/contracts/shopify.js';
import { secretValueEnvName } from '../../lambdas/core/secrets.js';
import type { RouteDefinition } from '../../lambdas/routes.js';
import { buildHttpEvent } from './gateway.js';
import { DEMO_PRODUCTS, productPhoto } from './products.js';
import { SAMPLE_USER, sampleClaims } from './sample-identity.js';

export interface RouteRequest {
  body?: unknown;
  query?: Record<string, string>;
  params?: Record<string, string>;
  headers?: Record<string, string>;
}

/** The payload v2 event of a route, as the local gateway builds it for a request (and API Gateway in the cloud). */
export function routeEvent(route: RouteDefinition, request: RouteRequest, claims: Record<string, string> | undefined) {
  const params = request.params ?? {};
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(typeof request.body === 'string' ? request.body : JSON.stringify(request.body));
  const headers: Record<string, string> = {
    host: 'localhost:5173',
    'user-agent': 'modelloop-invoke',
    ...(body.length ? { 'content-type': 'application/json' } : {}),
    ...Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
  };
  return buildHttpEvent(
    {
      route,
      params,
      path: fillPath(route.path, params),
      rawQueryString: new URLSearchParams(request.query ?? {}).toString(),
      headers,
      body,
    },
    route.auth === 'user' ? claims : undefined,
  );
}

/** What a sample's `{{name}}` placeholders stand for. */
const PLACEHOLDERS: Record<string, () => Promise<string> | string> = {
  userId: () => SAMPLE_USER.sub,
  // A small product photo (the demo's T-shirt), as API callers send one inline.
  productPhotoBase64: async () => (await productPhoto(DEMO_PRODUCTS[0]!, 300, 350)).toString('base64'),
};

async function fillPlaceholders(value: unknown): Promise<unknown> {
  if (typeof value === 'string') {
    let filled = value;
    for (const [name, produce] of Object.entries(PLACEHOLDERS)) if (filled.includes(`{{${name}}}`)) filled = filled.replaceAll(`{{${name}}}`, await produce());
    return filled;
  }
  if (Array.isArray(value)) return Promise.all(value.map(fillPlaceholders));
  if (value && typeof value === 'object') return Object.fromEntries(await Promise.all(Object.entries(value).map(async ([key, item]) => [key, await fillPlaceholders(item)])));
  return value;
}

/**
 * A valid event of a route: its contract's sample request, from the sample caller. Shopify's webhook is signed as
 * Shopify signs it (a shop/redact for a shop nobody connected), with the app's secret when `env` holds it (a twin's).
 */
export async function sampleRouteEvent(route: RouteDefinition, env: NodeJS.ProcessEnv = {}) {
  const sample = route.contract.sample;
  if (route.path === shopifyWebhookRoute.path && route.method === shopifyWebhookRoute.method) return sampleShopifyWebhook(route, env);
  return routeEvent(
    route,
    {
      body: await fillPlaceholders(sample?.body),
      query: sample?.query,
      params: sample?.params,
      // A fresh key per sample: the same key with another body is refused (409), so an edited sample needs its own.
      headers: route.contract.idempotent ? { [IDEMPOTENCY_HEADER]: randomUUID() } : {},
    },
    sampleClaims(),
  );
}

function sampleShopifyWebhook(route: RouteDefinition, env: NodeJS.ProcessEnv) {
  const domain = 'sample-shop.myshopify.com';
  const body = JSON.stringify({ shop_id: 1, shop_domain: domain });
  const app = env[secretValueEnvName('shopifyApp')];
  const secret = app ? (JSON.parse(app) as { apiSecret: string }).apiSecret : 'no-app-secret-here';
  const headers = {
    'x-shopify-topic': 'shop/redact',
    'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body).digest('base64'),
    'x-shopify-shop-domain': domain,
    'x-shopify-api-version': '2026-10',
    'x-shopify-webhook-id': randomBytes(16).toString('hex'),
    'x-shopify-event-id': randomBytes(16).toString('hex'),
    'x-shopify-triggered-at': new Date().toISOString(),
  };
  return routeEvent(route, { body, headers }, undefined);
}

/** The problems of a zod check, each as `where.path: message`. */
export function schemaProblems(schema: z.ZodType | undefined, value: unknown, where: string): string[] {
  if (!schema) return [];
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${where}${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`);
}

/** Checks a payload v2 event against the route and its contract; returns the problems (none: it passes). */
export function routeEventProblems(route: RouteDefinition, event: unknown): string[] {
  const { contract } = route;
  const httpEvent = event as ReturnType<typeof routeEvent>;
  const problems: string[] = [];
  if (httpEvent.version !== '2.0' || httpEvent.routeKey !== `${route.method} ${route.path}`) problems.push(`routeKey: expected '${route.method} ${route.path}'`);
  if (route.auth === 'user' && !httpEvent.requestContext?.authorizer?.jwt?.claims?.sub) problems.push('requestContext.authorizer.jwt.claims.sub: missing');
  if (contract.idempotent && !httpEvent.headers?.[IDEMPOTENCY_HEADER]) problems.push(`headers.${IDEMPOTENCY_HEADER}: missing`);
  for (const name of route.path.match(/\{(\w+)\+?\}/g) ?? []) {
    const param = name.replace(/[{}+]/g, '');
    if (!httpEvent.pathParameters?.[param]) problems.push(`pathParameters.${param}: missing`);
  }
  const body = httpEvent.body ? JSON.parse(httpEvent.isBase64Encoded ? Buffer.from(httpEvent.body, 'base64').toString('utf8') : httpEvent.body) : undefined;
  problems.push(...schemaProblems(contract.body, body, 'body'), ...schemaProblems(contract.query, httpEvent.queryStringParameters ?? {}, 'query'));
  return problems;
}
