// The one client of the HTTP API: calls a route from its contract (lambdas/contracts/<feature>.ts: method, path,
// whether it needs a sign-in, the answer's schema), attaches the Cognito ID token, parses every answer with the
// route's response schema and turns `{error, code}` answers into ApiError.
import { ApiErrorBody, IDEMPOTENCY_HEADER, type RuntimeConfig } from '@contracts/api';
import { GATEWAY_ERROR_CODES } from '@contracts/aws-limits';
import { fillPath, type PathParams, type ResponseOf, type RouteContract } from '@contracts/route';
import type { z } from 'zod';
import { bootAuth, idToken } from './auth';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface RequestOptions {
  method: RouteContract['method'];
  body?: unknown;
  idempotencyKey?: string;
  /** Public routes are called without a token. */
  anonymous: boolean;
}

/** What a call of the route needs: its path's parameters, its body, its query, and an Idempotency-Key when it spends. */
export type CallOptions<R extends RouteContract> = ([PathParams<R['path']>] extends [never] ? { params?: undefined } : { params: Record<PathParams<R['path']>, string> }) &
  (R['body'] extends z.ZodType ? { body: z.input<R['body']> } : { body?: undefined }) &
  (R['query'] extends z.ZodType ? { query?: Record<string, string | undefined> } : { query?: undefined }) &
  (R['idempotent'] extends true ? { idempotencyKey: string } : { idempotencyKey?: undefined });

/** Calls one route of the API as its contract declares it; answers what its response schema parses. */
export function callRoute<R extends RouteContract>(route: R, ...[options]: Partial<CallOptions<R>> extends CallOptions<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>]): Promise<ResponseOf<R>> {
  const { params, query, body, idempotencyKey } = (options ?? {}) as { params?: Record<string, string>; query?: Record<string, string | undefined>; body?: unknown; idempotencyKey?: string };
  const search = new URLSearchParams(Object.entries(query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
  const path = `${fillPath(route.path, params ?? {})}${search ? `?${search}` : ''}`;
  return apiRequest(route.response, path, { method: route.method, body, idempotencyKey, anonymous: route.auth === 'public' }) as Promise<ResponseOf<R>>;
}

function joinUrl(config: RuntimeConfig, path: string): string {
  return `${config.apiUrl.replace(/\/+$/, '')}${path}`;
}

async function send(config: RuntimeConfig, path: string, options: RequestOptions, forceRefresh: boolean) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.idempotencyKey) headers[IDEMPOTENCY_HEADER] = options.idempotencyKey;
  if (!options.anonymous) {
    const token = await idToken({ forceRefresh });
    if (!token) throw new ApiError('Your session has ended. Please sign in again.', 401, 'UNAUTHENTICATED');
    headers.authorization = `Bearer ${token}`;
  }
  return fetch(joinUrl(config, path), {
    method: options.method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

async function apiRequest(schema: z.ZodType | undefined, path: string, options: RequestOptions): Promise<unknown> {
  const config = await bootAuth();
  let response = await send(config, path, options, false);
  // A token can expire between the check and the call: renew once and retry.
  if (response.status === 401 && !options.anonymous) response = await send(config, path, options, true);
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = ApiErrorBody.safeParse(body);
    if (parsed.success) throw new ApiError(parsed.data.error, response.status, parsed.data.code);
    throw gatewayRefusal(response.status) ?? new ApiError(`The server answered ${response.status}`, response.status, 'HTTP_ERROR');
  }
  if (!schema) return body;
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(`Unexpected answer from ${path}`, response.status, 'BAD_RESPONSE');
  return parsed.data;
}

/**
 * API Gateway's own refusals carry no code in the cloud (HTTP APIs have no gateway responses to add one): the stage
 * throttle's 429 and the payload limit's 413 get the codes the twin's gateway sends for them.
 */
function gatewayRefusal(status: number): ApiError | undefined {
  if (status === 429) return new ApiError('Too many requests right now. Please wait a moment and try again.', 429, GATEWAY_ERROR_CODES.throttled);
  if (status === 413) return new ApiError('This request is too large. Use a smaller image, or upload it first.', 413, GATEWAY_ERROR_CODES.requestTooLarge);
  return undefined;
}

/** A fresh key for one spending attempt; a retry of the same attempt reuses it. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
