// The SDK clients of the cloud adapters, loaded on first use and kept for the container's life, shared by every
// registry and status check built in it.
import type { S3Client } from '@aws-sdk/client-s3';

export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}

const bedrockClients = new Map<string, Promise<import('@aws-sdk/client-bedrock-runtime').BedrockRuntimeClient>>();
export function bedrockClient(region: string) {
  let client = bedrockClients.get(region);
  if (!client) {
    client = import('@aws-sdk/client-bedrock-runtime').then(({ BedrockRuntimeClient }) => new BedrockRuntimeClient({ region }));
    bedrockClients.set(region, client);
  }
  return client;
}

// Pure for the bundler: a function that never reads the FASHN key (checking a clip) does not carry Secrets Manager.
export const secretsClient = /* @__PURE__ */ once(async () => {
  const { SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
  return new SecretsManagerClient({});
});

/** The given client, or the functions' own (lambdas/core/s3.ts). */
export async function sharedS3(given?: S3Client): Promise<S3Client> {
  return given ?? (await import('../core/s3.js')).s3;
}


/** The Gemini API key of these settings: read from Secrets Manager once per container, or given. */
const googleKeys = new Map<string, () => Promise<string>>();
export async function googleApiKey(settings: import('./config.js').GoogleSettings): Promise<() => Promise<string>> {
  const id = settings.apiKeySecret ?? `key:${settings.apiKey}`;
  let reader = googleKeys.get(id);
  if (!reader) {
    const { googleApiKeyReader } = await import('./google/api-key.js');
    reader = googleApiKeyReader({ secretName: settings.apiKeySecret, apiKey: settings.apiKey });
    googleKeys.set(id, reader);
  }
  return reader;
}

/** Stores a provider's finished clip (a Veo MP4 downloaded from the Gemini API) in the bucket the workflow named. */
export async function storeClip(location: { bucket: string; key: string }, bytes: Buffer, given?: S3Client): Promise<void> {
  const [{ PutObjectCommand }, s3] = await Promise.all([import('@aws-sdk/client-s3'), sharedS3(given)]);
  await s3.send(new PutObjectCommand({ Bucket: location.bucket, Key: location.key, Body: bytes, ContentType: 'video/mp4' }));
}
