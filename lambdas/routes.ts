// The one route table of the HTTP API. CDK builds API Gateway routes and one Lambda per entry from it;
// the local gateway serves the same entries by calling the same handler modules in-process.
import type { BucketName, TableName } from './data/tables.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Access = 'read' | 'write';

export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway path syntax: /clothing-items/{id} */
  path: string;
  /** Module lambdas/handlers/<handler>.ts, exporting `handler`. */
  handler: string;
  /** 'user': a verified Cognito ID token is required (the JWT authorizer); 'public': none. */
  auth: 'user' | 'public';
  /** What the function touches; CDK grants exactly this and passes the names in the same call. */
  tables?: Partial<Record<TableName, Access>>;
  buckets?: Partial<Record<BucketName, Access>>;
  /** Longer work than the default 10 s (still always below API Gateway's 29 s). */
  timeoutSeconds?: number;
  memoryMb?: number;
}

/** Every authenticated call makes sure the caller's profile exists (with the sign-up credits), so it needs these. */
export const USER_ROUTE_TABLES: Partial<Record<TableName, Access>> = { profiles: 'write', ledger: 'write' };

export const ROUTES = [
  { method: 'GET', path: '/profile', handler: 'get-profile', auth: 'user' },
  {
    method: 'GET',
    path: '/credit-transactions',
    handler: 'list-credit-transactions',
    auth: 'user',
    tables: { ledger: 'read' },
  },
  {
    method: 'GET',
    path: '/pricing-tiers',
    handler: 'list-pricing-tiers',
    auth: 'public',
    tables: { pricingTiers: 'read' },
  },
  { method: 'POST', path: '/credits/purchase', handler: 'purchase-credits', auth: 'user' },
] as const satisfies readonly RouteDefinition[];

/** CORS of the HTTP API: the same settings for API Gateway and the local gateway. */
export const CORS = {
  allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: ['authorization', 'content-type', 'idempotency-key'],
  maxAgeSeconds: 600,
} as const;
