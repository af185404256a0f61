// When to read a list (or a video's URLs) again so that its signed URLs never expire on screen. A URL signed with a
// Lambda's temporary credentials lives only as long as they do; the server signs it for no longer and answers when
// it stops working (`url_expires_at` on rows, `expiresAt` on single answers). The list is read again ten minutes
// before the first of them (at least every `longest` ms, at most every 30 s). A bare presigned URL is read for its
// own expiry (X-Amz-Date + X-Amz-Expires), for answers that name none.
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

/** Expiry (epoch ms) of an answered `expiresAt` (ISO time) or, failing that, of a presigned URL. */
export function expiryOf(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const at = Date.parse(value);
    return Number.isFinite(at) ? at : undefined;
  }
  return signedUrlExpiry(value);
}

/**
 * Milliseconds until signed URLs should be fetched again: ten minutes before the first expires. `expiries` are the
 * answers' `expiresAt` / `url_expires_at` times (or presigned URLs, read for their own expiry).
 */
export function urlRefreshMs(expiries: readonly (string | null | undefined)[], now = Date.now(), longest = URL_REFRESH_MS): number {
  const first = Math.min(...expiries.map(expiryOf).filter((expiry): expiry is number => expiry !== undefined));
  if (!Number.isFinite(first)) return longest;
  return Math.min(longest, Math.max(SHORTEST_MS, first - MARGIN_MS - now));
}
