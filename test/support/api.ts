// Calls to the HTTP API as the web app makes them: JSON, the caller's ID token as a Bearer token.
import type { TestUser } from './users.js';

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
}

export async function api<T = any>(
  apiUrl: string,
  method: string,
  path: string,
  options: { user?: TestUser; token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiAnswer<T>> {
  const token = options.token ?? options.user?.idToken;
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
