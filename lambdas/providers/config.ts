// The adapter chosen for each AI port, read from the environment and checked: a missing or invalid setting fails
// with the variable's name. Shared by the provider registry and the video status check (video-status.ts).
import { PROVIDER_CHOICES } from './choices.js';

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

