// The Gemini API key: read from AWS Secrets Manager once per container (GOOGLE_API_KEY_SECRET, the secret holding the
// key itself or a JSON object with `apiKey`), or given directly (GOOGLE_API_KEY: a developer's machine, the contract
// fakes). A failed read is tried again on the next call.
import { GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { secretsClient } from '../clients.js';
import { apiKeyFromSecret } from '../fashn/api-key.js';
import type { GoogleSettings } from '../config.js';
import { ProviderError } from '../ports.js';
import { GOOGLE_FAILED_MESSAGE, toProviderError } from './errors.js';

export type ApiKeyReader = () => Promise<string>;

export function googleApiKeyReader(source: { secretName?: string; apiKey?: string }): ApiKeyReader {
  if (source.apiKey) {
    const key = source.apiKey;
    return async () => key;
  }
  const secretName = source.secretName;
  if (!secretName) throw new Error('Missing configuration: GOOGLE_API_KEY_SECRET is not set');
  let cached: Promise<string> | undefined;
  async function load(): Promise<string> {
    const client = await secretsClient();
    let secret: string | undefined;
    try {
      secret = (await client.send(new GetSecretValueCommand({ SecretId: secretName }))).SecretString;
    } catch (error) {
      // Secrets Manager's own status decides: throttling and 5xx are worth retrying, a missing secret is not.
      const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
      throw toProviderError(status === undefined ? error : { status });
    }
    const key = apiKeyFromSecret(secret);
    if (!key) throw new ProviderError('failed', GOOGLE_FAILED_MESSAGE);
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

/** The reader of these settings' key, one per container, shared by every registry and status check built in it. */
const readers = new Map<string, ApiKeyReader>();
export function googleApiKey(settings: Pick<GoogleSettings, 'apiKeySecret' | 'apiKey'>): ApiKeyReader {
  const id = settings.apiKeySecret ? `secret:${settings.apiKeySecret}` : `key:${settings.apiKey}`;
  let reader = readers.get(id);
  if (!reader) {
    reader = googleApiKeyReader({ secretName: settings.apiKeySecret, apiKey: settings.apiKey });
    readers.set(id, reader);
  }
  return reader;
}
