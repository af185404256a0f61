// Downloading a prediction's output (a picture or an MP4) without becoming a server-side request forgery tool: only
// https (http only where a test server is explicitly allowed), only hosts the configured API vouches for, and then
// the guard of every server-side fetch (public addresses only, checked after resolution and connected to as checked,
// time and size limits while streaming), no redirects, and a file recognised by its magic bytes (JPEG, PNG, WebP; an
// MP4's `ftyp` box), whatever content type the CDN states. A `data:image/...;base64,` output (return_base64) needs no fetch.
import { isIP } from 'node:net';
import { detectImageType } from '../../contracts/upload-rules.js';
import { safeFetch, SafeFetchError, type FetchedBody } from '../../net/safe-fetch.js';
import { ProviderError } from '../ports.js';
import { errorForNetworkFailure, FASHN_FAILED_MESSAGE } from './fashn-errors.js';

const MAX_IMAGE_BYTES = 64 * 1024 * 1024;
/** A 10 s clip at 1080p is tens of megabytes. */
const MAX_VIDEO_BYTES = 200 * 1024 * 1024;

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
    if (!bytes || !detectImageType(bytes)) throw refused();
    return bytes;
  }
  return download(output, policy, signal, { accept: 'image/*', maxBytes: MAX_IMAGE_BYTES, isExpected: (bytes) => !!detectImageType(bytes) });
}

/** An MP4 starts with a box whose type, at bytes 4–7, is `ftyp`. */
export const isMp4 = (bytes: Uint8Array): boolean => bytes.length >= 12 && Buffer.from(bytes.subarray(4, 8)).toString('latin1') === 'ftyp';

export function fetchOutputVideo(output: string, policy: OutputUrlPolicy, signal: AbortSignal): Promise<Buffer> {
  return download(output, policy, signal, { accept: 'video/mp4,video/*', maxBytes: MAX_VIDEO_BYTES, isExpected: isMp4 });
}

async function download(
  output: string,
  policy: OutputUrlPolicy,
  signal: AbortSignal,
  expected: { accept: string; maxBytes: number; isExpected: (bytes: Buffer) => boolean },
): Promise<Buffer> {
  const url = checkedOutputUrl(output, policy);
  let fetched: FetchedBody;
  try {
    // Redirects could leave the vouched-for hosts, so none are followed.
    fetched = await safeFetch(url, { maxBytes: expected.maxBytes, maxRedirects: 0, accept: expected.accept, signal });
  } catch (error) {
    throw outputFailure(error);
  }
  // CDNs label files loosely (application/octet-stream, binary/octet-stream): the bytes say what the file is.
  if (!expected.isExpected(fetched.bytes)) throw refused();
  return fetched.bytes;
}

/** A guarded download that failed: our deadline and the network are worth a retry; a refusal is not. */
function outputFailure(error: unknown): ProviderError {
  if (!(error instanceof SafeFetchError)) return errorForNetworkFailure(error);
  if (error.reason === 'TIMEOUT') return errorForNetworkFailure(Object.assign(new Error(error.message), { name: 'TimeoutError' }));
  if (error.reason === 'UNREACHABLE' || (error.reason === 'HTTP_ERROR' && (error.details.status ?? 0) >= 500)) return errorForNetworkFailure(null);
  return refused();
}
