// Signed URLs and the credentials that sign them: a URL signed with temporary credentials (a Lambda's role session)
// stops working when they expire, so it is signed for, and answered as lasting, no longer than they do; the web app
// reads its lists again ten minutes before the first answered expiry.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { presignDownload, presignUpload, signedUrlExpiresAt, signedUrlSeconds } from '../../lambdas/storage/presign.js';

// The web code imports the shared contracts through its own path alias (and is type-checked with the web's tsconfig).
vi.mock('@contracts/catalog', async () => import('../../lambdas/contracts/catalog.js'));
interface WebSignedUrls {
  URL_REFRESH_MS: number;
  urlRefreshMs(expiries: readonly (string | null | undefined)[], now?: number): number;
}
const webModule = '../../web/src/lib/signed-urls.ts';

const ENV = ['AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_CREDENTIAL_EXPIRATION', 'AWS_ENDPOINT_URL_S3', 'S3_FORCE_PATH_STYLE', 'BUCKET_RESULTS'];
const NOW = Date.UTC(2026, 10, 23, 20, 0, 0);
let saved: Record<string, string | undefined>;

beforeEach(() => {
  saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
  for (const name of ENV) delete process.env[name];
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'ASIAEXAMPLEEXAMPLE00',
    AWS_SECRET_ACCESS_KEY: 'secret',
    AWS_SESSION_TOKEN: 'session-token',
    BUCKET_RESULTS: 'results-bucket',
  });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** As a Lambda's role session that ends `minutes` from now. */
const sessionEndsIn = (minutes: number) => {
  process.env.AWS_CREDENTIAL_EXPIRATION = new Date(NOW + minutes * 60_000).toISOString();
};

describe('the lifetime of a signed URL', () => {
  it('is the credentials\' remaining time less a minute when they expire before the hour', async () => {
    sessionEndsIn(15);
    expect(await signedUrlSeconds(3600)).toBe(14 * 60);
    expect(await signedUrlExpiresAt(3600)).toBe(new Date(NOW + 14 * 60_000).toISOString());
    // The URL itself is signed for no longer, downloads and uploads alike.
    const download = new URL(await presignDownload('results', 'u1/result.png', 'image/png', 3600));
    expect(download.searchParams.get('X-Amz-Expires')).toBe(String(14 * 60));
    const upload = await presignUpload('results', 'u1/1700000000000-0123456789abcdef.png', { contentType: 'image/png', sizeBytes: 10 }, 3600);
    expect(new URL(upload.url).searchParams.get('X-Amz-Expires')).toBe(String(14 * 60));
  });

  it('is the full time asked when the credentials outlive it, or name no expiry (long-lived keys)', async () => {
    sessionEndsIn(6 * 60);
    expect(await signedUrlSeconds(3600)).toBe(3600);
    expect(await signedUrlExpiresAt(3600)).toBe(new Date(NOW + 3600_000).toISOString());
    delete process.env.AWS_CREDENTIAL_EXPIRATION;
    expect(await signedUrlSeconds(3600)).toBe(3600);
    expect(new URL(await presignDownload('results', 'u1/result.png', 'image/png', 3600)).searchParams.get('X-Amz-Expires')).toBe('3600');
  });

  it('is never zero or negative, even with credentials about to expire', async () => {
    sessionEndsIn(0.5);
    expect(await signedUrlSeconds(3600)).toBe(1);
  });
});

describe('the web app reads signed URLs again before they expire', () => {
  const url = (date: string, expires: number) => `https://bucket.s3.amazonaws.com/k.png?X-Amz-Date=${date}&X-Amz-Expires=${expires}&X-Amz-Signature=abc`;

  it('ten minutes before the first answered expiry, when it comes before the usual refresh', async () => {
    const { urlRefreshMs } = (await import(/* @vite-ignore */ webModule)) as WebSignedUrls;
    const inMinutes = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();
    // Rows signed with credentials that end in 20 minutes, beside ones that last the hour.
    expect(urlRefreshMs([inMinutes(60), inMinutes(20), null], NOW)).toBe(10 * 60_000);
    expect(urlRefreshMs([inMinutes(60)], NOW)).toBe(50 * 60_000);
    // Already past the margin: soon, but not in a tight loop.
    expect(urlRefreshMs([inMinutes(5)], NOW)).toBe(30_000);
  });

  it('reads a bare presigned URL for its own expiry, and every 50 minutes when nothing expires sooner', async () => {
    const { urlRefreshMs, URL_REFRESH_MS } = (await import(/* @vite-ignore */ webModule)) as WebSignedUrls;
    expect(URL_REFRESH_MS).toBe(50 * 60_000);
    expect(urlRefreshMs([url('20261123T200000Z', 3600), url('20261123T200000Z', 1200), null], NOW)).toBe(10 * 60_000);
    expect(urlRefreshMs([url('20261123T200000Z', 3600)], NOW)).toBe(50 * 60_000);
    expect(urlRefreshMs([], NOW)).toBe(50 * 60_000);
    expect(urlRefreshMs([url('20261123T190000Z', 3600)], NOW)).toBe(30_000);
  });
});
