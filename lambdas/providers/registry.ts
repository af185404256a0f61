// Chooses the adapter behind each AI port from configuration (docs/providers.md: Configuring AI providers):
//   PROVIDER_IMAGE   local | fashn | google           (on-model photos; google: Gemini image)
//   PROVIDER_EDIT    local | bedrock | google         (Stability image services; google: Gemini image, free text)
//   PROVIDER_UPSCALE local | bedrock                  (Stability Fast Upscale + Lanczos)
//   PROVIDER_VIDEO   local | bedrock | google | fashn (Luma Ray2; google: Gemini Omni; fashn: FASHN image-to-video)
// each defaulting to `local`, the local studio engine. A cloud adapter's settings are checked when the registry is
// built, so a missing one fails fast with its name: BEDROCK_REGION (edit, upscale, video on bedrock); FASHN_API_URL
// and FASHN_API_KEY_SECRET (image or video on fashn; FASHN_OUTPUT_HOSTS optionally lists extra hosts outputs may come from);
// GOOGLE_API_KEY_SECRET (any port on google; model ids GOOGLE_IMAGE_MODEL, GOOGLE_TEXT_MODEL, GOOGLE_VIDEO_MODEL, and
// GOOGLE_VIDEO_RESOLUTION).
// Video output goes where the port request says (VideoStartRequest.output), so no video bucket is configured here.
//
// Modules and SDK clients are loaded on first use and then kept: the local twin never loads a cloud SDK, and a
// container creates each client once. The local engine is reached only through the dynamic import of
// ./local-engine/index.js (its createLocalEngine({ s3 }) returns the four ports as a LocalEngine, a type of ./ports.ts).
//
// A bundle holds every adapter this module may load, image code (sharp) included: only the tasks that make pictures
// or start clips import it. Checking a clip needs none of that and goes through ./video-status.ts.
import type { S3Client } from '@aws-sdk/client-s3';
import { planClips as lumaPlanClips } from './bedrock/luma-request.js';
import { bedrockClient, once, secretsClient, sharedS3, storeClip } from './clients.js';
import type { FashnSettings, GoogleSettings } from './config.js';
import { planFashnClips } from './fashn/fashn-video.js';
import { planOmniClips } from './google/omni-plan.js';
import { readProviderConfig, type ProviderConfig } from './config.js';
import { listObjectKeys } from '../storage/object-list.js';
import type {
  EditPort,
  ImageOutput,
  LocalEngine,
  OnModelImagePort,
  Providers,
  UpscalePort,
  VideoClip,
  VideoPort,
  VideoStatus,
} from './ports.js';

export type { ChainedVideoPort, LocalEngine, Providers, VideoClip } from './ports.js';

export interface ProviderDependencies {
  /** The S3 client the local engine writes video files with. Default: lambdas/core/s3.ts. */
  s3?: S3Client;
  /** An already built local engine (tests); by default it is created from ./local-engine/index.js on first use. */
  localEngine?: LocalEngine;
}

export { readProviderConfig, type ProviderConfig };

/**
 * The dependencies every getProviders() call without its own uses. The functions of a twin run in the process that
 * started it, so a test that starts its own twin may set `localEngine` here (a recording wrapper of the real engine)
 * before the first task runs; nothing else ever writes it.
 */
export const SHARED_DEPENDENCIES: ProviderDependencies = {};
const localEngines = new WeakMap<ProviderDependencies, () => Promise<LocalEngine>>();
function localEngine(deps: ProviderDependencies): Promise<LocalEngine> {
  if (deps.localEngine) return Promise.resolve(deps.localEngine);
  let load = localEngines.get(deps);
  if (!load) {
    load = once(async () => (await import('./local-engine/index.js')).createLocalEngine({ s3: await sharedS3(deps.s3) }));
    localEngines.set(deps, load);
  }
  return load();
}

/** The local engine renders a video of any length as one exactly periodic clip. */
const singleClip = (durationSeconds: number): VideoClip[] => [{ seconds: durationSeconds, keyframe: 'source' }];

/** Gemini image's two ports, made once per registry; a photo larger than Gemini makes goes through `upscale`. */
function geminiImage(settings: GoogleSettings, upscale: () => Promise<UpscalePort>) {
  return once(async () => {
    const { createGeminiImage, googleApiKey, googleClient } = await import('./google/index.js');
    return createGeminiImage({
      client: googleClient({ apiKey: googleApiKey(settings), baseUrl: settings.baseUrl }),
      model: settings.imageModel,
      maxSize: settings.imageMaxSize,
      textModel: settings.textModel,
      upscale: { upscale: async (request) => (await upscale()).upscale(request) },
    });
  });
}

/** The FASHN key: from its Secrets Manager secret, or as given (a loopback fake's). */
async function fashnApiKey(fashn: FashnSettings): Promise<() => Promise<string>> {
  if (!fashn.apiKeySecret) {
    const key = fashn.apiKey ?? '';
    return () => Promise.resolve(key);
  }
  const { createApiKeyReader } = await import('./fashn/index.js');
  return createApiKeyReader(await secretsClient(), fashn.apiKeySecret);
}

function imagePort(config: ProviderConfig, deps: ProviderDependencies, gemini?: () => Promise<{ onModelImage: OnModelImagePort }>): () => Promise<OnModelImagePort> {
  if (config.image === 'google' && gemini) return async () => (await gemini()).onModelImage;
  const fashn = config.fashn;
  if (config.image === 'local' || !fashn) return async () => (await localEngine(deps)).onModelImage;
  return once(async () => {
    const { createFashnOnModel } = await import('./fashn/index.js');
    return createFashnOnModel({
      baseUrl: fashn.apiUrl,
      apiKey: await fashnApiKey(fashn),
      outputHosts: fashn.outputHosts,
      allowInsecureHttp: fashn.loopback,
    });
  });
}

function editPort(config: ProviderConfig, deps: ProviderDependencies, gemini?: () => Promise<{ edit: EditPort }>): () => Promise<EditPort> {
  if (config.edit === 'google' && gemini) return async () => (await gemini()).edit;
  const region = config.bedrockRegion;
  if (config.edit === 'local' || !region) return async () => (await localEngine(deps)).edit;
  return once(async () => (await import('./bedrock/index.js')).createStabilityEdit({ client: await bedrockClient(region) }));
}

function upscalePort(config: ProviderConfig, deps: ProviderDependencies): () => Promise<UpscalePort> {
  const region = config.bedrockRegion;
  if (config.upscale === 'local' || !region) return async () => (await localEngine(deps)).upscale;
  return once(async () => (await import('./bedrock/index.js')).createStabilityUpscale({ client: await bedrockClient(region) }));
}

function videoPort(config: ProviderConfig, deps: ProviderDependencies): { load: () => Promise<VideoPort>; plan: (seconds: number) => VideoClip[] } {
  const google = config.google;
  if (config.video === 'google' && google) {
    return {
      load: once(async () => {
        const { createOmniVideo, googleApiKey, googleClient } = await import('./google/index.js');
        const apiKey = googleApiKey(google);
        return createOmniVideo({
          client: googleClient({ apiKey, baseUrl: google.baseUrl }),
          model: google.videoModel,
          resolution: google.videoResolution,
          apiKey,
          baseUrl: google.baseUrl,
          store: storeClip,
        });
      }),
      plan: planOmniClips,
    };
  }
  const fashn = config.fashn;
  if (config.video === 'fashn' && fashn) {
    return {
      load: once(async () => {
        const { createFashnVideo } = await import('./fashn/index.js');
        return createFashnVideo({
          baseUrl: fashn.apiUrl,
          apiKey: await fashnApiKey(fashn),
          outputHosts: fashn.outputHosts,
          allowInsecureHttp: fashn.loopback,
          storeClip,
        });
      }),
      plan: planFashnClips,
    };
  }
  const region = config.bedrockRegion;
  if (config.video === 'local' || !region) return { load: async () => (await localEngine(deps)).video, plan: singleClip };
  // planClips is pure and synchronous, so it is loaded with the registry rather than with the SDK.
  return {
    load: once(async () =>
      (await import('./bedrock/index.js')).createLumaVideo({ client: await bedrockClient(region), listKeys: listObjectKeys }),
    ),
    plan: lumaPlanClips,
  };
}

/**
 * The four AI ports for this configuration. Configuration errors throw here; the adapters themselves load on
 * their first call.
 */
export function getProviders(env: NodeJS.ProcessEnv = process.env, deps: ProviderDependencies = SHARED_DEPENDENCIES): Providers {
  const config = readProviderConfig(env);
  const upscale = upscalePort(config, deps);
  const gemini = config.google ? geminiImage(config.google, upscale) : undefined;
  const image = imagePort(config, deps, gemini);
  const edit = editPort(config, deps, gemini);
  const video = videoPort(config, deps);
  return {
    onModelImage: { generate: async (request, job): Promise<ImageOutput> => (await image()).generate(request, job) },
    edit: { edit: async (request): Promise<ImageOutput> => (await edit()).edit(request) },
    upscale: { upscale: async (request): Promise<ImageOutput> => (await upscale()).upscale(request) },
    video: {
      planClips: video.plan,
      start: async (request) => (await video.load()).start(request),
      check: async (operationName): Promise<VideoStatus> => (await video.load()).check(operationName),
    },
  };
}

/** Whether the configured video adapter costs us money per call (everything but the local engine does). */
export function videoProviderIsPaid(env: NodeJS.ProcessEnv = process.env): boolean {
  return readProviderConfig(env).video !== 'local';
}
