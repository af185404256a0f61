// Chooses the adapter behind each AI port from configuration (DESIGN §5):
//   PROVIDER_IMAGE   local | fashn     (on-model photos)
//   PROVIDER_EDIT    local | bedrock   (Stability image services)
//   PROVIDER_UPSCALE local | bedrock   (Stability Fast Upscale + Lanczos)
//   PROVIDER_VIDEO   local | bedrock   (Luma Ray2)
// each defaulting to `local`, the local studio engine. A cloud adapter's settings are checked when the registry is
// built, so a missing one fails fast with its name: BEDROCK_REGION (edit, upscale, video on bedrock); FASHN_API_URL
// and FASHN_API_KEY_SECRET (image on fashn; FASHN_OUTPUT_HOSTS optionally lists extra hosts outputs may come from).
// Video output goes where the port request says (VideoStartRequest.output), so no video bucket is configured here.
//
// Modules and SDK clients are loaded on first use and then kept: the local twin never loads a cloud SDK, and a
// container creates each client once. The local engine is reached only through the dynamic import of
// ./local-engine/index.js (its createLocalEngine({ s3 }) returns the four ports as a LocalEngine, a type of ./ports.ts).
import type { S3Client } from '@aws-sdk/client-s3';
import { planClips as lumaPlanClips } from './bedrock/luma-request.js';
import { PROVIDER_CHOICES } from './choices.js';
import type { EditInstructions } from '../contracts/generations.js';
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

const CHOICES = PROVIDER_CHOICES;
type ChoiceName = keyof typeof CHOICES;
type Choice<N extends ChoiceName> = (typeof CHOICES)[N][number];

export interface ProviderConfig {
  image: Choice<'PROVIDER_IMAGE'>;
  edit: Choice<'PROVIDER_EDIT'>;
  upscale: Choice<'PROVIDER_UPSCALE'>;
  video: Choice<'PROVIDER_VIDEO'>;
  bedrockRegion?: string;
  fashn?: { apiUrl: string; apiKeySecret: string; outputHosts: string[] };
}

export interface ProviderDependencies {
  /** The S3 client of the local engine (video files) and of the Luma adapter (finding the MP4). Default: lambdas/core/s3.ts. */
  s3?: S3Client;
  /** An already built local engine (tests); by default it is created from ./local-engine/index.js on first use. */
  localEngine?: LocalEngine;
}

function requireEnv(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`Missing configuration: environment variable ${name} is not set`);
  return value;
}

function choice<N extends ChoiceName>(env: NodeJS.ProcessEnv, name: N): Choice<N> {
  const allowed: readonly string[] = CHOICES[name];
  const value = env[name]?.trim() || 'local';
  if (!allowed.includes(value)) {
    throw new Error(`Invalid configuration: environment variable ${name} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as Choice<N>;
}

/** Reads and checks the provider configuration; throws naming the first missing or invalid variable. */
export function readProviderConfig(env: NodeJS.ProcessEnv = process.env): ProviderConfig {
  const config: ProviderConfig = {
    image: choice(env, 'PROVIDER_IMAGE'),
    edit: choice(env, 'PROVIDER_EDIT'),
    upscale: choice(env, 'PROVIDER_UPSCALE'),
    video: choice(env, 'PROVIDER_VIDEO'),
  };
  if (config.edit === 'bedrock' || config.upscale === 'bedrock' || config.video === 'bedrock') {
    config.bedrockRegion = requireEnv(env, 'BEDROCK_REGION');
  }
  if (config.image === 'fashn') {
    config.fashn = {
      apiUrl: requireEnv(env, 'FASHN_API_URL'),
      apiKeySecret: requireEnv(env, 'FASHN_API_KEY_SECRET'),
      outputHosts: (env.FASHN_OUTPUT_HOSTS ?? '').split(',').map((host) => host.trim().toLowerCase()).filter(Boolean),
    };
    if (!config.fashn.apiUrl.startsWith('https://')) {
      throw new Error('Invalid configuration: environment variable FASHN_API_URL must be an https:// URL');
    }
  }
  return config;
}

function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}

// Clients live as long as the container, shared by every registry built in it.
const bedrockClients = new Map<string, Promise<import('@aws-sdk/client-bedrock-runtime').BedrockRuntimeClient>>();
function bedrockClient(region: string) {
  let client = bedrockClients.get(region);
  if (!client) {
    client = import('@aws-sdk/client-bedrock-runtime').then(({ BedrockRuntimeClient }) => new BedrockRuntimeClient({ region }));
    bedrockClients.set(region, client);
  }
  return client;
}

const secretsClient = once(async () => {
  const { SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
  return new SecretsManagerClient({});
});

async function sharedS3(deps: ProviderDependencies): Promise<S3Client> {
  return deps.s3 ?? (await import('../core/s3.js')).s3;
}

const SHARED_DEPENDENCIES: ProviderDependencies = {};
const localEngines = new WeakMap<ProviderDependencies, () => Promise<LocalEngine>>();
function localEngine(deps: ProviderDependencies): Promise<LocalEngine> {
  if (deps.localEngine) return Promise.resolve(deps.localEngine);
  let load = localEngines.get(deps);
  if (!load) {
    load = once(async () => (await import('./local-engine/index.js')).createLocalEngine({ s3: await sharedS3(deps) }));
    localEngines.set(deps, load);
  }
  return load();
}

/** The local engine renders a video of any length as one exactly periodic clip. */
const singleClip = (durationSeconds: number): VideoClip[] => [{ seconds: durationSeconds, keyframe: 'source' }];

function imagePort(config: ProviderConfig, deps: ProviderDependencies): () => Promise<OnModelImagePort> {
  const fashn = config.fashn;
  if (config.image === 'local' || !fashn) return async () => (await localEngine(deps)).onModelImage;
  return once(async () => {
    const { createFashnOnModel, createApiKeyReader } = await import('./fashn/index.js');
    return createFashnOnModel({
      baseUrl: fashn.apiUrl,
      apiKey: createApiKeyReader(await secretsClient(), fashn.apiKeySecret),
      outputHosts: fashn.outputHosts,
    });
  });
}

function editPort(config: ProviderConfig, deps: ProviderDependencies): () => Promise<EditPort> {
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
  const region = config.bedrockRegion;
  if (config.video === 'local' || !region) return { load: async () => (await localEngine(deps)).video, plan: singleClip };
  // planClips is pure and synchronous, so it is loaded with the registry rather than with the SDK.
  return {
    load: once(async () =>
      (await import('./bedrock/index.js')).createLumaVideo({ client: await bedrockClient(region), s3: await sharedS3(deps) }),
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
  const image = imagePort(config, deps);
  const edit = editPort(config, deps);
  const upscale = upscalePort(config, deps);
  const video = videoPort(config, deps);
  return {
    onModelImage: { generate: async (request): Promise<ImageOutput> => (await image()).generate(request) },
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

/**
 * What the edit screen shows as help for the configured edit adapter: the local engine's instructions, or a hint for
 * the cloud model that takes free text. Only the edit choice is read (every function gets the provider selection,
 * only provider functions get the adapters' settings), and only the local engine's instructions module is loaded.
 */
export async function editInstructions(env: NodeJS.ProcessEnv = process.env): Promise<EditInstructions> {
  if (choice(env, 'PROVIDER_EDIT') !== 'local') {
    return { engine: 'cloud', instructions: [], help: 'Describe the change in a sentence, e.g. "replace the background with a white studio wall".' };
  }
  const { EDIT_HELP, EDIT_INSTRUCTIONS } = await import('./local-engine/edit-instructions.js');
  return { engine: 'local-engine', instructions: [...EDIT_INSTRUCTIONS], help: EDIT_HELP };
}
