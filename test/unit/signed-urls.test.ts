// The web app reads its lists again before the signed URLs in them expire, as long as each URL really lasts.
import { describe, expect, it, vi } from 'vitest';

// The web code imports the shared contracts through its own path alias (and is type-checked with the web's tsconfig).
vi.mock('@contracts/catalog', async () => import('../../lambdas/contracts/catalog.js'));
interface WebSignedUrls {
  URL_REFRESH_MS: number;
  urlRefreshMs(urls: readonly (string | null | undefined)[], now?: number): number;
}

describe('the web app reads a list again before its URLs expire', () => {
  const webModule = '../../web/src/lib/signed-urls.ts';
  const url = (date: string, expires: number) => `https://bucket.s3.amazonaws.com/k.png?X-Amz-Date=${date}&X-Amz-Expires=${expires}&X-Amz-Signature=abc`;
  const now = Date.UTC(2026, 10, 23, 20, 0, 0);

  it('ten minutes before the first URL expires, when it expires before the usual refresh', async () => {
    const { urlRefreshMs } = (await import(/* @vite-ignore */ webModule)) as WebSignedUrls;
    // Signed now for 3600 s, and one for only 20 minutes (its credentials ended then).
    expect(urlRefreshMs([url('20261123T200000Z', 3600), url('20261123T200000Z', 1200), null], now)).toBe(10 * 60_000);
  });

  it('every 50 minutes for URLs that last the hour, and for a list without signed URLs', async () => {
    const { urlRefreshMs, URL_REFRESH_MS } = (await import(/* @vite-ignore */ webModule)) as WebSignedUrls;
    expect(URL_REFRESH_MS).toBe(50 * 60_000);
    expect(urlRefreshMs([url('20261123T200000Z', 3600)], now)).toBe(50 * 60_000);
    expect(urlRefreshMs([], now)).toBe(50 * 60_000);
    expect(urlRefreshMs([url('20261123T190000Z', 3600)], now)).toBe(30_000);
  });
});
