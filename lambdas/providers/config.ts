// The adapter chosen for each AI port, read from the environment and checked: a missing or invalid setting fails
// with the variable's name. Shared by the provider registry and the video status check (video-status.ts).
import { PROVIDER_CHOICES } from './choices.js';
import { GEMINI_IMAGE_SIZES, GOOGLE_DEFAULTS, type GeminiImageSize } from './google/models.js';
import { OMNI_RESOLUTIONS, type OmniResolution } from './google/model-table.js';

const CHOICES = PROVIDER_CHOICES;
type ChoiceName = keyof typeof CHOICES;
type Choice<N extends ChoiceName> = (typeof CHOICES)[N][number];

export interface ProviderConfig {
  image: Choice<'PROVIDER_IMAGE'>;
  edit: Choice<'PROVIDER_EDIT'>;
  upscale: Choice<'PROVIDER_UPSCALE'>;
  video: Choice<'PROVIDER_VIDEO'>;
  bedrockRegion?: string;
  fashn?: FashnSettings;
  google?: GoogleSettings;
}

/** The FASHN adapters' settings (image or video on fashn). */
export interface FashnSettings {
  /** FASHN_API_URL: https://, or http:// on loopback (the contract fakes). */
  apiUrl: string;
  /** FASHN_API_KEY_SECRET: the Secrets Manager secret with the API key (the cloud). */
  apiKeySecret?: string;
  /** FASHN_API_KEY: the key itself (the contract fakes), used when no secret is named. */
  apiKey?: string;
  /** FASHN_OUTPUT_HOSTS: extra hosts outputs may come from. */
  outputHosts: string[];
  /** Whether the API is a loopback fake reached over http. */
  loopback: boolean;
}

/** The Google adapters' settings (image, edit or video on google). */
export interface GoogleSettings {
  /** GOOGLE_API_KEY_SECRET: the Secrets Manager secret with the Gemini API key (the cloud). */
  apiKeySecret?: string;
  /** GOOGLE_API_KEY: the key itself (a developer's machine, the contract fakes), used when no secret is named. */
  apiKey?: string;
  /** GOOGLE_API_BASE_URL: the API's address (default the Gemini API); http only on loopback. */
  baseUrl?: string;
  /** GOOGLE_IMAGE_MODEL, GOOGLE_IMAGE_MAX_SIZE, GOOGLE_TEXT_MODEL, GOOGLE_VIDEO_MODEL, GOOGLE_VIDEO_RESOLUTION. */
  imageModel: string;
  imageMaxSize: GeminiImageSize;
  textModel: string;
  videoModel: string;
  videoResolution: OmniResolution;
}

function readGoogle(env: NodeJS.ProcessEnv): GoogleSettings {
  const apiKeySecret = env.GOOGLE_API_KEY_SECRET?.trim() || undefined;
  const apiKey = env.GOOGLE_API_KEY?.trim() || undefined;
  if (!apiKeySecret && !apiKey) throw new Error('Missing configuration: environment variable GOOGLE_API_KEY_SECRET is not set');
  const baseUrl = env.GOOGLE_API_BASE_URL?.trim() || undefined;
  if (baseUrl) {
    const url = new URL(baseUrl);
    const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
      throw new Error('Invalid configuration: environment variable GOOGLE_API_BASE_URL must be an https:// URL');
    }
  }
  const imageMaxSize = env.GOOGLE_IMAGE_MAX_SIZE?.trim() || GOOGLE_DEFAULTS.imageMaxSize;
  const sizes: readonly string[] = GEMINI_IMAGE_SIZES.map((size) => size.name);
  if (!sizes.includes(imageMaxSize)) {
    throw new Error(`Invalid configuration: environment variable GOOGLE_IMAGE_MAX_SIZE must be one of ${sizes.join(', ')} (got "${imageMaxSize}")`);
  }
  const videoResolution = env.GOOGLE_VIDEO_RESOLUTION?.trim() || GOOGLE_DEFAULTS.videoResolution;
  if (!(OMNI_RESOLUTIONS as readonly string[]).includes(videoResolution)) {
    throw new Error(`Invalid configuration: environment variable GOOGLE_VIDEO_RESOLUTION must be one of ${OMNI_RESOLUTIONS.join(', ')} (got "${videoResolution}")`);
  }
  return {
    apiKeySecret,
    apiKey: apiKeySecret ? undefined : apiKey,
    baseUrl,
    imageModel: env.GOOGLE_IMAGE_MODEL?.trim() || GOOGLE_DEFAULTS.imageModel,
    imageMaxSize: imageMaxSize as GeminiImageSize,
    textModel: env.GOOGLE_TEXT_MODEL?.trim() || GOOGLE_DEFAULTS.textModel,
    videoModel: env.GOOGLE_VIDEO_MODEL?.trim() || GOOGLE_DEFAULTS.videoModel,
    videoResolution: videoResolution as OmniResolution,
  };
}

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]');
}

function readFashn(env: NodeJS.ProcessEnv): FashnSettings {
  const apiUrl = requireEnv(env, 'FASHN_API_URL');
  const apiKey = env.FASHN_API_KEY?.trim() || undefined;
  const apiKeySecret = apiKey && !env.FASHN_API_KEY_SECRET?.trim() ? undefined : requireEnv(env, 'FASHN_API_KEY_SECRET');
  const loopback = URL.canParse(apiUrl) && isLoopbackHttp(new URL(apiUrl));
  if (!apiUrl.startsWith('https://') && !loopback) {
    throw new Error('Invalid configuration: environment variable FASHN_API_URL must be an https:// URL');
  }
  return {
    apiUrl,
    ...(apiKeySecret ? { apiKeySecret } : { apiKey }),
    outputHosts: (env.FASHN_OUTPUT_HOSTS ?? '').split(',').map((host) => host.trim().toLowerCase()).filter(Boolean),
    loopback,
  };
}

function requireEnv(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`Missing configuration: environment variable ${name} is not set`);
  return value;
}

/** One port's adapter, checked against the allowed ones (`local` when unset). */
export function readProviderChoice<N extends ChoiceName>(env: NodeJS.ProcessEnv, name: N): Choice<N> {
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
    image: readProviderChoice(env, 'PROVIDER_IMAGE'),
    edit: readProviderChoice(env, 'PROVIDER_EDIT'),
    upscale: readProviderChoice(env, 'PROVIDER_UPSCALE'),
    video: readProviderChoice(env, 'PROVIDER_VIDEO'),
  };
  if (config.edit === 'bedrock' || config.upscale === 'bedrock' || config.video === 'bedrock') {
    config.bedrockRegion = requireEnv(env, 'BEDROCK_REGION');
  }
  if (config.image === 'fashn' || config.video === 'fashn') {
    config.fashn = readFashn(env);
  }
  if (config.image === 'google' || config.edit === 'google' || config.video === 'google') config.google = readGoogle(env);
  return config;
}

