// An image sent inline (base64 in the JSON body) is capped by what a Lambda request carries (6 MB, the event around
// the body included): contracts/inline-image.ts derives 4 MB decoded from it. At the cap, generate-ai-image's
// `imageData` and generate-video's `imageBase64` are taken; one byte over, both answer 413 INLINE_IMAGE_TOO_LARGE
// naming the upload URL route, charging nothing. The OpenAPI document states the cap and the way around it.
import { randomBytes, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { GENERATION_UPLOAD_URL_PATH, INLINE_IMAGE_MAX_BYTES, INLINE_IMAGE_MAX_CHARS, LAMBDA_PAYLOAD_BYTES } from '../../lambdas/contracts/inline-image.js';
import { moneyChecks } from '../support/money.js';
import { api } from '../support/api.js';
import { createUser } from '../support/users.js';

const twin = inject('twin');
const { balanceOf } = moneyChecks(twin.apiUrl);

/** A valid PNG (noise, stored uncompressed) of exactly `size` bytes: a private ancillary chunk pads it before IEND. */
async function pngOfSize(size: number): Promise<Buffer> {
  const side = Math.floor(Math.sqrt((size - 64 * 1024) / 3));
  const png = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
  const padding = size - png.length - 12;
  if (padding < 0) throw new Error(`The PNG is ${png.length} bytes already`);
  const type = Buffer.from('pdNg', 'latin1');
  const data = Buffer.alloc(padding, 0x20);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(padding);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])) >>> 0);
  const end = png.length - 12;
  const padded = Buffer.concat([png.subarray(0, end), length, type, data, crc, png.subarray(end)]);
  expect(padded.length).toBe(size);
  return padded;
}

let atCap: Buffer;
let overCap: Buffer;
beforeAll(async () => {
  atCap = await pngOfSize(INLINE_IMAGE_MAX_BYTES);
  overCap = await pngOfSize(INLINE_IMAGE_MAX_BYTES + 1);
});

const post = (user: Awaited<ReturnType<typeof createUser>>, path: string, body: unknown) => api(twin.apiUrl, 'POST', path, { user, body, headers: { 'idempotency-key': randomUUID() } });
const refusal = { status: 413, body: { code: 'INLINE_IMAGE_TOO_LARGE', error: expect.stringContaining(`POST ${GENERATION_UPLOAD_URL_PATH}`) } };

describe('the inline image cap', () => {
  it('is 4 MB decoded: the largest whole MB whose base64 and the rest of the request fit a Lambda request of 6 MB', () => {
    expect(INLINE_IMAGE_MAX_BYTES).toBe(4 * 1024 * 1024);
    expect(INLINE_IMAGE_MAX_CHARS).toBeLessThan(LAMBDA_PAYLOAD_BYTES - 128 * 1024);
  });

  it('generate-ai-image takes imageData at the cap and answers 413 naming the upload URL one byte over, charging nothing', async () => {
    const user = await createUser(twin);
    const over = await post(user, '/generate-ai-image', { imageData: `data:image/png;base64,${overCap.toString('base64')}`, prompt: 'young female model' });
    expect(over).toMatchObject(refusal);
    // The same refusal before decoding: more characters than the cap's base64.
    const longer = await post(user, '/generate-ai-image', { imageData: 'A'.repeat(INLINE_IMAGE_MAX_CHARS + 4), prompt: 'young female model' });
    expect(longer).toMatchObject(refusal);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);

    const at = await post(user, '/generate-ai-image', { imageData: atCap.toString('base64'), prompt: 'young female model', imageSize: '1k' });
    expect(at.status, JSON.stringify(at.body)).toBe(200);
    expect(at.body.generationId).toEqual(expect.any(String));
  });

  it('generate-video takes imageBase64 at the cap and answers 413 naming the upload URL one byte over, charging nothing', async () => {
    const user = await createUser(twin);
    const over = await post(user, '/generate-video', { imageBase64: overCap.toString('base64'), prompt: 'Pivot', duration: 5 });
    expect(over).toMatchObject(refusal);
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);

    const at = await post(user, '/generate-video', { imageBase64: atCap.toString('base64'), prompt: 'Pivot', duration: 5 });
    expect(at.status, JSON.stringify(at.body)).toBe(200);
    // Accepted is all this test needs: the render is stopped (and refunded) rather than left to load the machine.
    expect((await api(twin.apiUrl, 'POST', `/jobs/${at.body.jobId}/cancel`, { user })).status).toBe(200);
  });

  it('the OpenAPI document states the cap on both fields, the 413 and the upload URL', async () => {
    const document = (await (await fetch(`${twin.apiUrl}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, { maxLength?: number; description?: string }> } }> }; responses: Record<string, { description: string }> }>> };
    for (const [path, field] of [['/v1/generate-ai-image', 'imageData'], ['/v1/generate-video', 'imageBase64']] as const) {
      const operation = document.paths[path]!.post!;
      const property = operation.requestBody.content['application/json']!.schema.properties[field]!;
      expect(property.maxLength, path).toBe(INLINE_IMAGE_MAX_CHARS);
      expect(property.description, path).toContain('4 MB');
      expect(property.description, path).toContain(GENERATION_UPLOAD_URL_PATH);
      expect(operation.responses['413']!.description, path).toContain(GENERATION_UPLOAD_URL_PATH);
    }
  });
});
