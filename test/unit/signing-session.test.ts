// Signed URLs last no longer than the session that signs them (issue 47 item 5): a function signs with a session of the
// URL-signer role whose end STS tells it, here the twin's STS (lib/local/sts.ts) on a loopback port, its sessions cut
// to 20 minutes by the twin's test clock. Without the role (scripts, unit tests) the environment's credentials sign.
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bucketEnvName } from '../../lambdas/data/tables.js';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { sessionTokenExpiry, startLocalSts } from '../../lib/local/sts.js';

const SESSION_MINUTES = 20;
let server: Server;
let stsCalls = 0;
let failing = false;
/** Sessions of an hour, as STS gives (the longest role chaining allows), instead of the 20-minute test clock. */
let hourLong = false;
let stsUrl = '';
const twinOnly = (accessKeyId: string) => (accessKeyId === LOCAL_CREDENTIALS.accessKeyId ? LOCAL_CREDENTIALS : undefined);

beforeAll(async () => {
  const short = startLocalSts({ path: '/sts/', credentialsOf: twinOnly, env: { MODELLOOP_LOCAL_SESSION_SECONDS: String(SESSION_MINUTES * 60) } });
  const long = startLocalSts({ path: '/sts/', credentialsOf: twinOnly, env: {} });
  server = createServer((req, res) => {
    stsCalls += 1;
    if (failing) return void res.writeHead(403, { 'content-type': 'text/xml' }).end('<ErrorResponse><Error><Code>AccessDenied</Code></Error></ErrorResponse>');
    void (hourLong ? long : short).mount.handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stsUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/sts/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ENV = ['AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_CREDENTIAL_EXPIRATION', 'AWS_ENDPOINT_URL_STS', 'URL_SIGNER_ROLE_ARN', bucketEnvName('results')];
let saved: Record<string, string | undefined>;
beforeEach(() => {
  saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
  for (const name of ENV) delete process.env[name];
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_SESSION_TOKEN: LOCAL_CREDENTIALS.sessionToken,
    AWS_ENDPOINT_URL_STS: stsUrl,
    URL_SIGNER_ROLE_ARN: 'arn:aws:iam::000000000000:role/modelloop-url-signer',
    [bucketEnvName('results')]: 'results-bucket',
  });
  stsCalls = 0;
  failing = false;
  hourLong = false;
  // Each test starts without a cached session.
  vi.resetModules();
});
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const presign = async () => import('../../lambdas/storage/presign.js');

describe('a signed URL and the session that signs it', () => {
  it('is signed with a session of the URL-signer role, for no longer than the session lasts (less a minute), and says so', async () => {
    const { presignDownload, signedUrlExpiresAt } = await presign();
    const before = Date.now();
    const url = new URL(await presignDownload('results', 'u1/result.png', 'image/png', 3600));
    const token = url.searchParams.get('X-Amz-Security-Token')!;
    // Not the function's own session: one STS handed out, whose end it said.
    expect(token).not.toBe(LOCAL_CREDENTIALS.sessionToken);
    const sessionEnds = sessionTokenExpiry(LOCAL_CREDENTIALS, token)!.getTime();
    expect(sessionEnds - before).toBeLessThanOrEqual(SESSION_MINUTES * 60_000 + 1000);
    const lasts = Number(url.searchParams.get('X-Amz-Expires'));
    expect(lasts).toBeLessThan(3600);
    expect(Date.parse(url.searchParams.get('X-Amz-Date')!.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z')) + lasts * 1000).toBeLessThan(sessionEnds);
    const answered = Date.parse(await signedUrlExpiresAt(3600));
    expect(answered).toBeLessThan(sessionEnds);
    expect(answered).toBeGreaterThan(sessionEnds - 2 * 60_000);
    expect(stsCalls).toBeGreaterThanOrEqual(1);
  });

  it('keeps a session that has more than half an hour left, and asks for a new one when it has less', async () => {
    const { signingCredentials } = await import('../../lambdas/storage/signing-session.js');
    // 20-minute sessions always have less than half an hour left: each signing asks again.
    await signingCredentials();
    await signingCredentials();
    expect(stsCalls).toBe(2);
    // An hour-long one is kept: a URL asked for an hour then lasts at least half of it.
    hourLong = true;
    const first = await signingCredentials();
    expect(first.expiration!.getTime() - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(await signingCredentials()).toEqual(first);
    expect(stsCalls).toBe(3);
  });

  it('fails rather than sign with a session whose end nobody knows', async () => {
    failing = true;
    const { presignDownload } = await presign();
    await expect(presignDownload('results', 'u1/result.png', 'image/png', 3600)).rejects.toMatchObject({ name: 'AccessDenied' });
  });

  it('signs with the environment’s own credentials when the stage names no signer role (scripts, tests)', async () => {
    delete process.env.URL_SIGNER_ROLE_ARN;
    const { presignDownload } = await presign();
    const url = new URL(await presignDownload('results', 'u1/result.png', 'image/png', 3600));
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe(LOCAL_CREDENTIALS.sessionToken);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(stsCalls).toBe(0);
  });
});
