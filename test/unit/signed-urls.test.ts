// Signed URLs and the credentials that sign them: a URL signed with temporary credentials (a Lambda's role session)
// stops working when they expire, so it is signed for, and answered as lasting, no longer than they do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
