// /config.json as the server sent it, fetched once per page and shared. Nothing here validates: that is
// runtime-config.ts, with zod. The landing page reads one optional figure through this without loading zod.

let jsonPromise: Promise<unknown> | undefined;

/** The parsed body of /config.json (unchecked); a failed fetch is forgotten so a later call tries again. */
export function fetchConfigJson(): Promise<unknown> {
  jsonPromise ??= fetch('/config.json', { cache: 'no-store' })
    .then(async (response) => {
      if (!response.ok) throw new Error(`GET /config.json answered ${response.status}`);
      return (await response.json()) as unknown;
    })
    .catch((error: unknown) => {
      jsonPromise = undefined;
      throw error;
    });
  return jsonPromise;
}
