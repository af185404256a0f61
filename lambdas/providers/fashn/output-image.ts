// Downloading a prediction's output image without becoming a server-side request forgery tool (DESIGN §6): only
// https (http only where a test server is explicitly allowed), only hosts the configured API vouches for, no
// redirects, an image content type and a size cap. A `data:image/...;base64,` output (return_base64) needs no fetch.
import { isIP } from 'node:net';
import { ProviderError } from '../ports.js';
import { errorForNetworkFailure, FASHN_FAILED_MESSAGE } from './fashn-errors.js';

const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

export interface OutputUrlPolicy {
  /** Hosts an output may come from. */
  allowedHosts: (hostname: string) => boolean;
  allowInsecureHttp: boolean;
}

/**
 * The default host rule: the API's own host, and hosts in the API's parent domain (api.fashn.ai → cdn.fashn.ai,
 * where the documented outputs live: "https://cdn.fashn.ai/<id>/output_0.png"). An IP address allows only itself.
 */
export function hostsVouchedForBy(apiUrl: URL, extraHosts: readonly string[] = []): (hostname: string) => boolean {
  const apiHost = apiUrl.hostname.toLowerCase();
  const labels = apiHost.split('.');
  const parent = !isIP(apiHost) && labels.length >= 3 ? labels.slice(1).join('.') : null;
  return (hostname) => {
    const host = hostname.toLowerCase();
    if (host === apiHost || extraHosts.includes(host)) return true;
    return parent !== null && (host === parent || host.endsWith(`.${parent}`));
  };
}

const refused = () => new ProviderError('failed', FASHN_FAILED_MESSAGE);

/** The output URL if the policy allows fetching it; otherwise a 'failed' ProviderError. */
export function checkedOutputUrl(output: string, policy: OutputUrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(output);
  } catch {
    throw refused();
  }
  const schemeAllowed = url.protocol === 'https:' || (policy.allowInsecureHttp && url.protocol === 'http:');
  if (!schemeAllowed || url.username || url.password || !policy.allowedHosts(url.hostname)) throw refused();
  return url;
}

function fromDataUrl(output: string): Buffer | null {
  const match = /^data:image\/(?:png|jpe?g|webp);base64,([A-Za-z0-9+/=\s]+)$/.exec(output);
  return match?.[1] ? Buffer.from(match[1], 'base64') : null;
}

export async function fetchOutputImage(output: string, policy: OutputUrlPolicy, signal: AbortSignal): Promise<Buffer> {
  if (output.startsWith('data:')) {
    const bytes = fromDataUrl(output);
    if (!bytes) throw refused();
    return bytes;
  }
  const url = checkedOutputUrl(output, policy);
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'error', signal });
  } catch (error) {
    throw errorForNetworkFailure(error);
  }
  const type = response.headers.get('content-type') ?? '';
  const length = Number(response.headers.get('content-length') ?? 0);
  if (!response.ok || !type.startsWith('image/') || length > MAX_OUTPUT_BYTES) {
    await response.body?.cancel();
    throw response.status >= 500 ? errorForNetworkFailure(null) : refused();
  }
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw errorForNetworkFailure(error);
  }
  if (bytes.length > MAX_OUTPUT_BYTES) throw refused();
  return bytes;
}
