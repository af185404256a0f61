// What one route of the HTTP API is, declared once in the contract file of its feature and read by everything else:
// the handler's wrapper (lambdas/core/http.ts: schemas, Idempotency-Key, success status), the route table
// (lambdas/routes.ts adds only infrastructure), the OpenAPI document (openapi.ts), the twin's contract checks and
// `npm run invoke`/`event` samples (lib/local/), and the web app's client (web/src/lib/api.ts `callRoute`).
// Declare each route in a `/* @__PURE__ */ (() => defineRoute({ … }))()` so that a bundle builds only the routes it reads.
import type * as z from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A sample request for `npm run invoke` / `npm run event`. Strings may hold placeholders the twin fills in:
 * `{{userId}}` (the sample caller's id) and `{{productPhotoBase64}}` (a small product photo, as API callers send one).
 */
export interface RouteSample {
  body?: unknown;
  query?: Record<string, string>;
  params?: Record<string, string>;
}

export interface RouteContract {
  method: HttpMethod;
  /** API Gateway path syntax: /clothing-items/{id} */
  path: string;
  /** 'user': a verified Cognito ID token (or, under /v1, an API key) is required; 'public': none. */
  auth: 'user' | 'public';
  /** What a person or a program reads about the route (the OpenAPI summary). */
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  /** The answer's shape (the OpenAPI document describes it; the web client parses every answer with it). */
  response?: z.ZodType;
  /** The success status when it is not 200. */
  status?: 201 | 202;
  /** Spends or buys credits: an Idempotency-Key header is required. */
  idempotent?: boolean;
  /**
   * Also served by the public API at `/v1<path>` to callers with an API key (the API-key authorizer), through the
   * same function. Such a function also counts each key's requests (the limits table).
   */
  publicApi?: boolean;
  /** Refusals this route has beyond those every route (or every spending route) has, by status. */
  errors?: { 403?: string; 409?: string; 413?: string };
  sample?: RouteSample;
}

/** Keeps the literal types (method, path, auth, idempotent, the schemas) that the wrappers and the client read. */
export function defineRoute<const R extends RouteContract>(route: R): R {
  return route;
}

/** The ids the sample requests and the sample workflow inputs name (nothing the twin has stored). */
export const SAMPLE_IDS = {
  model: 'mdl_sample',
  clothingItem: 'sample-clothing-item',
  generation: 'sample-generation',
  job: 'sample-job',
  batch: 'sample-batch',
  webhook: 'we_sample',
} as const;

/** A route path with its parameters filled in: /clothing-items/{id} → /clothing-items/abc */
export function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\+?\}/g, (_, name: string) => encodeURIComponent(params[name] ?? `{${name}}`));
}

/** The names of a path's parameters: '/jobs/{id}/cancel' → 'id'. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never;

export type BodyOf<R extends RouteContract> = R['body'] extends z.ZodType ? z.output<R['body']> : undefined;
export type QueryOf<R extends RouteContract> = R['query'] extends z.ZodType ? z.output<R['query']> : undefined;
export type ResponseOf<R extends RouteContract> = R['response'] extends z.ZodType ? z.output<R['response']> : unknown;

/** Refusals several routes share, as the OpenAPI document words them. */
export const ROUTE_ERRORS = {
  notYours: 'The image belongs to another account (FORBIDDEN).',
  imageNotReady: 'The generation has no finished image to use (IMAGE_NOT_READY).',
} as const;
