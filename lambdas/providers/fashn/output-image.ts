// Downloading a prediction's output image without becoming a server-side request forgery tool: only https (http
// only where a test server is explicitly allowed), only hosts the configured API vouches for, and then the guard of
// every server-side fetch (public addresses only, checked after resolution and connected to as checked, time and
// size limits while streaming), no redirects, and an image content type. A `data:image/...;base64,` output (return_base64) needs no fetch.
import { isIP } from 'node:net';
import { safeFetch, SafeFetchError, type FetchedBody } from '../../net/safe-fetch.js';
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
  let fetched: FetchedBody;
  try {
    // Redirects could leave the vouched-for hosts, so none are followed.
    fetched = await safeFetch(url, { maxBytes: MAX_OUTPUT_BYTES, maxRedirects: 0, accept: 'image/*', signal });
  } catch (error) {
    throw outputFailure(error);
  }
  if (!fetched.contentType.startsWith('image/')) throw refused();
  return fetched.bytes;
}

/** A guarded download that failed: our deadline and the network are worth a retry; a refusal is not. */
function outputFailure(error: unknown): ProviderError {
  if (!(error instanceof SafeFetchError)) return errorForNetworkFailure(error);
  if (error.reason === 'TIMEOUT') return errorForNetworkFailure(Object.assign(new Error(error.message), { name: 'TimeoutError' }));
  if (error.reason === 'UNREACHABLE' || (error.reason === 'HTTP_ERROR' && (error.details.status ?? 0) >= 500)) return errorForNetworkFailure(null);
  return refused();
}
