// The video port's `check` on its own, for the video workflow's CheckClip task: whether the clip a `start` began is
// ready, and where it is. It loads only the status half of the configured adapter (Luma: GetAsyncInvoke and a
// presigned listing, lambdas/storage/object-list.ts; local: reading the operation name back), never the image code that starting a clip needs, so the
// CheckClip function carries no sharp. getProviders().video.check answers the same through the full adapters.
import { listObjectKeys } from '../storage/object-list.js';
import { bedrockClient, once, secretsClient, storeClip } from './clients.js';
import { readProviderConfig, type ProviderConfig } from './config.js';
import { checkLocalClip } from './local-engine/clip-operations.js';
import type { VideoStatus } from './ports.js';

export interface VideoStatusPort {
  check(operationName: string): Promise<VideoStatus>;
}

/** The status check of the configured video adapter; configuration errors throw here, naming the variable. */
export function getVideoStatus(env: NodeJS.ProcessEnv = process.env): VideoStatusPort {
  const config = readProviderConfig(env);
  const google = config.google;
  if (config.video === 'google' && google) {
    // The SDK-free half of the Omni adapter (google/omni-status.ts): CheckClip stays within the lean bundle budget.
    const omni = once(async () => {
      const [{ createOmniStatus }, { googleApiKey }] = await Promise.all([import('./google/omni-status.js'), import('./google/api-key.js')]);
      return createOmniStatus({ apiKey: googleApiKey(google), baseUrl: google.baseUrl, store: storeClip });
    });
    return { check: async (operationName) => (await omni()).check(operationName) };
  }
  const region = config.bedrockRegion;
  if (config.video === 'fashn') return fashnVideoStatus(config);
  if (config.video === 'local' || !region) return { check: async (operationName) => checkLocalClip(operationName) };
  const luma = once(async () =>
    (await import('./bedrock/luma-status.js')).createLumaStatus({ client: await bedrockClient(region), listKeys: listObjectKeys }),
  );
  return { check: async (operationName) => (await luma()).check(operationName) };
}

function fashnVideoStatus(config: ProviderConfig): VideoStatusPort {
  const fashn = config.fashn!;
  const status = once(async () => {
    const [{ createFashnVideoStatus }, { createApiKeyReader }] = await Promise.all([
      import('./fashn/fashn-video-status.js'),
      import('./fashn/api-key.js'),
    ]);
    return createFashnVideoStatus({
      baseUrl: fashn.apiUrl,
      apiKey: fashn.apiKeySecret ? createApiKeyReader(await secretsClient(), fashn.apiKeySecret) : () => Promise.resolve(fashn.apiKey ?? ''),
      outputHosts: fashn.outputHosts,
      allowInsecureHttp: fashn.loopback,
      storeClip,
    });
  });
  return { check: async (operationName) => (await status()).check(operationName) };
}
