// A URL dies with the session that signed it, on the twin as in the cloud (issue 47 item 5). This twin's sessions last
// 75 s (MODELLOOP_LOCAL_SESSION_SECONDS, its test clock; STS's own are an hour): a URL signed for an hour with such a
// session, as the functions signed until round 5, is refused once the session has ended (400 ExpiredToken, as S3
// answers), while the URL a route hands out is signed, and answered as lasting, no longer than its session.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionCredentials } from '../../lib/local/grants.js';
import { LOCAL_SESSION_SECONDS_ENV, sessionTokenExpiry } from '../../lib/local/sts.js';
import { api } from '../support/api.js';
import { exited, killTree, startTwinProcess, type TwinProcess } from '../support/twin-process.js';
import { productJpeg, uploadFile } from '../support/uploads.js';
import { createUser } from '../support/users.js';

const SESSION_SECONDS = 75;
const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-sessions-'));
let twin: TwinProcess;

beforeAll(async () => {
  twin = await startTwinProcess({ dataDir, env: { [LOCAL_SESSION_SECONDS_ENV]: String(SESSION_SECONDS) } });
}, 300_000);
afterAll(async () => {
  if (twin) {
    killTree(twin.child, 'SIGTERM');
    await exited(twin.child);
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a signed URL on a twin whose sessions end after 75 s', () => {
  it('is answered as lasting no longer than its session, and a URL that outlives its session is refused once it has ended', async () => {
    const { info } = twin;
    const user = await createUser(info);
    const imageKey = await uploadFile(info, user, '/clothing-items/upload-url', await productJpeg());
    expect((await api(info.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey, name: 'Linen shirt' } })).status).toBe(201);
    const [item] = (await api<{ items: { signed_url: string; url_expires_at: string }[] }>(info.apiUrl, 'GET', '/clothing-items', { user })).body.items;

    // Signed by a session STS handed the listing function (its own key, a token of the session's), and answered as
    // lasting no longer than that session.
    const lister = functionCredentials('list-clothing-items');
    const signed = new URL(item!.signed_url);
    expect(signed.searchParams.get('X-Amz-Credential')!.split('/')[0]).toBe(lister.accessKeyId);
    const session = { accessKeyId: lister.accessKeyId, secretAccessKey: lister.secretAccessKey, sessionToken: signed.searchParams.get('X-Amz-Security-Token')! };
    expect(session.sessionToken).not.toBe(lister.sessionToken);
    const sessionEnds = sessionTokenExpiry(lister, session.sessionToken);
    expect(sessionEnds, 'the URL is signed with a session whose end is known').toBeInstanceOf(Date);
    expect(sessionEnds!.getTime() - Date.now()).toBeLessThanOrEqual(SESSION_SECONDS * 1000);
    expect(Date.parse(item!.url_expires_at)).toBeLessThanOrEqual(sessionEnds!.getTime());
    expect((await fetch(item!.signed_url)).status).toBe(200);

    // The same session signing the same object for an hour: fine while the session lasts, refused once it has ended.
    const s3 = new S3Client({ endpoint: info.env.AWS_ENDPOINT_URL_S3, region: info.env.AWS_REGION, credentials: session, forcePathStyle: true });
    const outliving = await getSignedUrl(s3, new GetObjectCommand({ Bucket: info.env.BUCKET_CLOTHING_IMAGES!, Key: imageKey }), { expiresIn: 3600 });
    expect((await fetch(outliving)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, sessionEnds!.getTime() - Date.now() + 1000));
    const refused = await fetch(outliving);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('<Code>ExpiredToken</Code>');
  }, 300_000);
});
