// Calls to the public API (/v1) with an API key, and making keys through the Cognito-only key routes.
import { api, type ApiAnswer } from './api.js';
import type { TestUser } from './users.js';

export async function createApiKey(apiUrl: string, user: TestUser, name = 'test key'): Promise<{ id: string; key: string }> {
  const answer = await api(apiUrl, 'POST', '/api-keys', { user, body: { name } });
  if (answer.status !== 201) throw new Error(`creating a key answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function keyApi<T = any>(
  apiUrl: string,
  key: string | undefined,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiAnswer<T> & { headers: Headers }> {
  const response = await fetch(`${apiUrl}/v1${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(key ? { 'x-api-key': key } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}
