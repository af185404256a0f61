import { RuntimeConfig } from '@contracts/api';

let configPromise: Promise<RuntimeConfig> | undefined;

/** The runtime configuration both hosts serve as /config.json, fetched once and validated. */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  configPromise ??= fetch('/config.json', { cache: 'no-store' })
    .then(async (response) => {
      if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
      const parsed = RuntimeConfig.safeParse(await response.json());
      if (!parsed.success) throw new Error(`config.json is invalid: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
      return parsed.data;
    })
    .catch((error: unknown) => {
      configPromise = undefined; // a later attempt may succeed
      throw error;
    });
  return configPromise;
}
