// Signed URLs and the credentials that sign them: a URL signed with temporary credentials (a Lambda's role session)
// stops working when they expire, so it is signed for, and answered as lasting, no longer than they do.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The web code imports the shared contracts through its own path alias (and is type-checked with the web's tsconfig).
vi.mock('@contracts/catalog', async () => import('../../lambdas/contracts/catalog.js'));
interface WebSignedUrls {
  URL_REFRESH_MS: number;
  urlRefreshMs(urls: readonly (string | null | undefined)[], now?: number): number;
}

const saved = { ...process.env };
let objects: typeof import('../../lambdas/storage/objects.js');

beforeAll(async () => {
  for (const name of ['AWS_PROFILE', 'AWS_ENDPOINT_URL_S3', 'S3_FORCE_PATH_STYLE']) delete process.env[name];
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'ASIAEXAMPLEEXAMPLE00',
    AWS_SECRET_ACCESS_KEY: 'secret',
    AWS_SESSION_TOKEN: 'session-token',
    // As a Lambda's role session that ends in 15 minutes.
    AWS_CREDENTIAL_EXPIRATION: new Date(Date.now() + 15 * 60_000).toISOString(),
    BUCKET_RESULTS: 'results-bucket',
  });
  objects = await import('../../lambdas/storage/objects.js');
});
afterAll(() => {
  process.env = saved;
});

describe('signed URLs with temporary credentials', () => {
  it('are signed for no longer than the credentials last, and their real expiry is what is answered', async () => {
    const url = new URL(await objects.presignDownload('results', 'u1/result.png', 'image/png', 3600));
    const expires = Number(url.searchParams.get('X-Amz-Expires'));
    expect(expires).toBeGreaterThan(12 * 60);
    expect(expires).toBeLessThanOrEqual(15 * 60);
    const expiresAt = Date.parse(await objects.signedUrlExpiresAt(3600));
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    expect(expiresAt).toBeGreaterThan(Date.now() + 12 * 60_000);
  });

  it('last their full time when the credentials outlive them', async () => {
    expect(await objects.signedUrlSeconds(3600, Date.now() - 24 * 3600_000)).toBe(3600);
    expect(await objects.signedUrlSeconds(600)).toBe(600);
  });

  it('put uploads tagged pending, the tag header signed', async () => {
    const upload = await objects.presignUpload('results', 'u1/1700000000000-0123456789abcdef.png', { contentType: 'image/png', sizeBytes: 10 }, 900);
    expect(upload.headers['x-amz-tagging']).toBe('upload=pending');
    expect(new URL(upload.url).searchParams.get('X-Amz-SignedHeaders')).toContain('x-amz-tagging');
  });
});

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
