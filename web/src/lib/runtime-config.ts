import { RuntimeConfig } from '@contracts/api';
import { fetchConfigJson } from './config-json';

let configPromise: Promise<RuntimeConfig> | undefined;

/** The runtime configuration both hosts serve as /config.json, fetched once and validated. */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  configPromise ??= fetchConfigJson()
    .then((json) => {
      const parsed = RuntimeConfig.safeParse(json);
      if (!parsed.success) throw new Error(`config.json is invalid: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
      return parsed.data;
    })
    .catch((error: unknown) => {
      configPromise = undefined; // a later attempt may succeed
      throw error;
    });
  return configPromise;
}
