// The FASHN API key, read from AWS Secrets Manager once per container and kept in memory.
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ProviderError } from '../ports.js';
import { callAws } from '../bedrock/errors.js';
import { FASHN_FAILED_MESSAGE } from './fashn-errors.js';

/** The secret holds the key itself, or a JSON object with an `apiKey` (or `api_key`) field. */
export function apiKeyFromSecret(secret: string | undefined): string | null {
  const text = secret?.trim();
  if (!text) return null;
  if (!text.startsWith('{')) return text;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const key = parsed.apiKey ?? parsed.api_key;
    return typeof key === 'string' && key.trim() ? key.trim() : null;
  } catch {
    return null;
  }
}

/** A reader that fetches the secret on first use and caches it; a failed read is retried on the next call. */
export function createApiKeyReader(client: SecretsManagerClient, secretId: string): () => Promise<string> {
  let cached: Promise<string> | undefined;
  async function load(): Promise<string> {
    const secret = await callAws(() => client.send(new GetSecretValueCommand({ SecretId: secretId })));
    const key = apiKeyFromSecret(secret.SecretString);
    if (!key) throw new ProviderError('failed', FASHN_FAILED_MESSAGE);
    return key;
  }
  return () => {
    cached ??= load().catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };
}
