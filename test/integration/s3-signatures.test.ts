// The twin's S3 refuses what S3 refuses (lib/local/s3-signatures.ts in front of s3rver): unsigned reads and
// listings, tampered and expired signatures, other credentials, a body of another length than signed, a signed
// header left out; and a presigned upload creates its key once (If-None-Match: *), so a registered upload's bytes
// can't be replaced through its URL.
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, inject, it } from 'vitest';
import { LOCAL_CREDENTIALS, LOCAL_SESSION_TOKEN_LENGTH } from '../../lib/local/s3-local.js';
import { api } from '../support/api.js';
import { productJpeg, uploadFile } from '../support/uploads.js';
import { createUser } from '../support/users.js';

const twin = inject('twin');
const endpoint = twin.env.AWS_ENDPOINT_URL_S3!;
const bucket = twin.env.BUCKET_CLOTHING_IMAGES!;
const client = (credentials = LOCAL_CREDENTIALS) => new S3Client({ endpoint, region: twin.env.AWS_REGION, credentials, forcePathStyle: true });

/** A stored upload of a new user's, and a GET URL of it signed as a function signs it. */
async function storedObject() {
  const user = await createUser(twin);
  const key = await uploadFile(twin, user, '/clothing-items/upload-url', await productJpeg());
  const signed = await getSignedUrl(client(), new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: 300 });
  return { user, key, signed };
}

async function refusal(response: Response) {
  const body = await response.text();
  return { status: response.status, code: /<Code>([^<]+)<\/Code>/.exec(body)?.[1] };
}

describe('reads and listings', () => {
  it('a signed GET reads the object; the same URL unsigned, or with a tampered signature, is refused', async () => {
    const { key, signed } = await storedObject();
    const good = await fetch(signed);
    expect(good.status).toBe(200);
    expect(Buffer.from(await good.arrayBuffer()).equals(await productJpeg())).toBe(true);

    expect(await refusal(await fetch(`${endpoint}/${bucket}/${key}`))).toEqual({ status: 403, code: 'AccessDenied' });
    const url = new URL(signed);
    const signature = url.searchParams.get('X-Amz-Signature')!;
    url.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    expect(await refusal(await fetch(url))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    // Another object's key under the same signature.
    const other = new URL(signed);
    other.pathname = other.pathname.replace(/\.jpg$/, '2.jpg');
    expect(await refusal(await fetch(other))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
  });

  it('an unsigned listing of a bucket, or of every bucket, is refused', async () => {
    await storedObject();
    expect(await refusal(await fetch(`${endpoint}/${bucket}?list-type=2`))).toEqual({ status: 403, code: 'AccessDenied' });
    expect(await refusal(await fetch(`${endpoint}/${bucket}`))).toEqual({ status: 403, code: 'AccessDenied' });
    expect(await refusal(await fetch(`${endpoint}/`))).toEqual({ status: 403, code: 'AccessDenied' });
  });

  it('an expired URL is refused', async () => {
    const { key } = await storedObject();
    const expired = await getSignedUrl(client(), new GetObjectCommand({ Bucket: bucket, Key: key }), {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 2 * 60_000),
    });
    expect(await refusal(await fetch(expired))).toEqual({ status: 403, code: 'AccessDenied' });
  });

  it('URLs signed with other credentials, or without the session token, are refused', async () => {
    const { key } = await storedObject();
    const command = new GetObjectCommand({ Bucket: bucket, Key: key });
    const s3rverDefaults = await getSignedUrl(client({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', sessionToken: LOCAL_CREDENTIALS.sessionToken }), command);
    expect(await refusal(await fetch(s3rverDefaults))).toEqual({ status: 403, code: 'InvalidAccessKeyId' });
    const wrongSecret = await getSignedUrl(client({ ...LOCAL_CREDENTIALS, secretAccessKey: 'not-the-twins-secret-access-key-at-all00' }), command);
    expect(await refusal(await fetch(wrongSecret))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    const noToken = await getSignedUrl(client({ ...LOCAL_CREDENTIALS, sessionToken: undefined as unknown as string }), command);
    expect(await refusal(await fetch(noToken))).toEqual({ status: 400, code: 'InvalidToken' });
  });
});

describe('presigned uploads', () => {
  const requestUpload = (user: Awaited<ReturnType<typeof createUser>>, sizeBytes: number) =>
    api(twin.apiUrl, 'POST', '/clothing-items/upload-url', { user, body: { fileName: 'shirt.jpg', contentType: 'image/jpeg', sizeBytes } });

  it('carry a session token as long as a Lambda role session\'s, and sign If-None-Match', async () => {
    const user = await createUser(twin);
    const answer = await requestUpload(user, 1000);
    const url = new URL(answer.body.uploadUrl);
    expect(url.searchParams.get('X-Amz-Security-Token')).toHaveLength(LOCAL_SESSION_TOKEN_LENGTH);
    expect(LOCAL_SESSION_TOKEN_LENGTH).toBeGreaterThanOrEqual(1000);
    expect(url.searchParams.get('X-Amz-SignedHeaders')!.split(';')).toEqual(expect.arrayContaining(['content-length', 'content-type', 'if-none-match', 'x-amz-tagging']));
    expect(answer.body.headers).toMatchObject({ 'if-none-match': '*' });
  });

  it('are refused with another length, another type, another tag or without If-None-Match', async () => {
    const user = await createUser(twin);
    const bytes = await productJpeg();
    const answer = await requestUpload(user, bytes.length);
    const put = (headers: Record<string, string>, body: Buffer = bytes) => fetch(answer.body.uploadUrl, { method: 'PUT', headers, body });
    const headers: Record<string, string> = answer.body.headers;
    expect(await refusal(await put(headers, Buffer.concat([bytes, Buffer.alloc(10)])))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await refusal(await put({ ...headers, 'content-type': 'image/png' }))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(await refusal(await put({ ...headers, 'x-amz-tagging': 'upload=kept' }))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    const { 'if-none-match': _condition, ...unconditional } = headers;
    expect(await refusal(await put(unconditional))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    // An x-amz-* header the signature does not cover.
    expect(await refusal(await put({ ...headers, 'x-amz-meta-note': 'extra' }))).toEqual({ status: 403, code: 'AccessDenied' });
    // Exactly as signed, it stores the file.
    expect((await put(headers)).status).toBe(200);
  });

  it('create their key once: a PUT after the registration is refused with 412 and the registered bytes stay', async () => {
    const user = await createUser(twin);
    const bytes = await productJpeg();
    const answer = await requestUpload(user, bytes.length);
    const put = () => fetch(answer.body.uploadUrl, { method: 'PUT', headers: answer.body.headers, body: bytes });
    expect((await put()).status).toBe(200);
    const registered = await api(twin.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: answer.body.imageKey, name: 'Shirt' } });
    expect(registered.status).toBe(201);
    expect(await refusal(await put())).toEqual({ status: 412, code: 'PreconditionFailed' });
    const stored = await client().send(new GetObjectCommand({ Bucket: bucket, Key: answer.body.imageKey }));
    expect(Buffer.from(await stored.Body!.transformToByteArray()).equals(bytes)).toBe(true);
  });
});
