// The one client of the HTTP API: attaches the Cognito ID token, parses every answer with its contract schema and
// turns `{error, code}` answers into ApiError.
import { ApiErrorBody, IDEMPOTENCY_HEADER, type RuntimeConfig } from '@contracts/api';
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
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  idempotencyKey?: string;
  /** Public routes are called without a token. */
  anonymous?: boolean;
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
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

export async function apiRequest<S extends z.ZodType>(schema: S, path: string, options: RequestOptions = {}): Promise<z.infer<S>> {
  const config = await bootAuth();
  let response = await send(config, path, options, false);
  // A token can expire between the check and the call: renew once and retry.
  if (response.status === 401 && !options.anonymous) response = await send(config, path, options, true);
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = ApiErrorBody.safeParse(body);
    if (parsed.success) throw new ApiError(parsed.data.error, response.status, parsed.data.code);
    throw new ApiError(`The server answered ${response.status}`, response.status, 'HTTP_ERROR');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(`Unexpected answer from ${path}`, response.status, 'BAD_RESPONSE');
  return parsed.data;
}

/** A fresh key for one spending attempt; a retry of the same attempt reuses it. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
