// The model a row names before its provider has answered: the family of the adapter configured for its port, written
// as that adapter names its results ('local-engine', 'fashn…', 'bedrock:stability.…', 'bedrock:luma.…'). A row that
// fails before any provider answered then shows the same model name in History as the rows that completed.
import { readProviderChoice } from '../../providers/config.js';

type Port = 'image' | 'edit' | 'upscale' | 'video';
const PORT_VARIABLES = { image: 'PROVIDER_IMAGE', edit: 'PROVIDER_EDIT', upscale: 'PROVIDER_UPSCALE', video: 'PROVIDER_VIDEO' } as const;

const FAMILIES: Readonly<Record<string, Partial<Record<Port, string>>>> = {
  local: { image: 'local-engine', edit: 'local-engine', upscale: 'local-engine', video: 'local-engine' },
  fashn: { image: 'fashn', video: 'fashn' },
  bedrock: { edit: 'bedrock:stability.', upscale: 'bedrock:stability.', video: 'bedrock:luma.' },
};

/** The configured adapter's model family for the port, or `fallback` when that adapter has no entry here. */
export function engineModelName(port: Port, fallback: string, env: NodeJS.ProcessEnv = process.env): string {
  const adapter: string = readProviderChoice(env, PORT_VARIABLES[port]);
  return FAMILIES[adapter]?.[port] ?? fallback;
}
