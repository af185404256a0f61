// When to read a list again so that its signed URLs never expire on screen. A URL signed with a Lambda's temporary
// credentials lives only as long as they do, and the server signs it for no longer (X-Amz-Expires); the list is read
// again ten minutes before the first of its URLs expires (at least every `longest` ms, at most every 30 s).
import { SIGNED_URL_SECONDS } from '@contracts/catalog';

const MARGIN_MS = 10 * 60_000;
const SHORTEST_MS = 30_000;
export const URL_REFRESH_MS = SIGNED_URL_SECONDS * 1000 - MARGIN_MS;

/** Expiry (epoch ms) of a presigned S3 URL from its X-Amz-Date and X-Amz-Expires; undefined for other URLs. */
export function signedUrlExpiry(url: string | null | undefined): number | undefined {
  if (!url) return undefined;
  try {
    const params = new URL(url).searchParams;
    const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(params.get('X-Amz-Date') ?? '');
    const seconds = Number(params.get('X-Amz-Expires'));
    if (!date || !Number.isFinite(seconds)) return undefined;
    const [, y, mo, d, h, mi, s] = date.map(Number) as number[];
    return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) + seconds * 1000;
  } catch {
    return undefined;
  }
}

/** Milliseconds until `urls` should be signed again: ten minutes before the first expires. */
export function urlRefreshMs(urls: readonly (string | null | undefined)[], now = Date.now(), longest = URL_REFRESH_MS): number {
  const first = Math.min(...urls.map(signedUrlExpiry).filter((expiry): expiry is number => expiry !== undefined));
  if (!Number.isFinite(first)) return longest;
  return Math.min(longest, Math.max(SHORTEST_MS, first - MARGIN_MS - now));
}
