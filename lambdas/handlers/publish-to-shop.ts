// POST /publications: checks, records and starts a publication to Shopify (domain/shopify/publish.ts).
import { publishToShopRoute } from '../contracts/shopify.js';
import { route } from '../core/http.js';
import { startPublication } from '../domain/shopify/publish.js';

export const handler = route(publishToShopRoute, ({ caller, body, idempotencyKey }) => startPublication(caller, body, idempotencyKey));
