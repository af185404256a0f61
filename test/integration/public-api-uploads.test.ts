// The public API can upload what it documents: an API key gets a generation upload URL under /v1 (listed in the
// served OpenAPI document), PUTs the file with exactly the headers answered, and generates with `imageKey` — once by
// hand and once by running the quick start's example exactly as the API screen shows it.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { MB } from '../../lambdas/contracts/catalog.js';
import { GENERATION_UPLOAD_URL_PATH, INLINE_IMAGE_MAX_BYTES } from '../../lambdas/contracts/inline-image.js';
import { quickStartExamples } from '../../web/src/features/api-keys/quick-start-examples.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { createApiKey, keyApi } from '../support/api-keys.js';
import { createUser } from '../support/users.js';

const twin = inject('twin');
const LIMITS = { inlineImageMaxMb: INLINE_IMAGE_MAX_BYTES / MB, uploadUrlPath: GENERATION_UPLOAD_URL_PATH };
const run = promisify(execFile);

async function finished(key: string, generationId: string): Promise<{ status: string; result_url: string | null }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await keyApi(twin.apiUrl, key, 'GET', `/generations/${generationId}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    if (answer.body.status !== 'processing' || Date.now() > deadline) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('/v1 generation uploads', () => {
  it('are in the served OpenAPI document', async () => {
    const document = (await (await fetch(`${twin.apiUrl}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary: string }>> };
    expect(document.paths['/v1/generation-uploads/upload-url']?.post?.summary).toMatch(/imageKey/);
  });

  it('an API key gets an upload URL, PUTs the file with the answered headers (once), and generates with imageKey', async () => {
    const user = await createUser(twin);
    const { key } = await createApiKey(twin.apiUrl, user);
    const photo = await tshirtPhoto();
    const upload = await keyApi(twin.apiUrl, key, 'POST', '/generation-uploads/upload-url', {
      body: { fileName: 'product.jpg', contentType: 'image/jpeg', sizeBytes: photo.length },
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    expect(upload.body.imageKey).toMatch(new RegExp(`^${user.sub}/`));
    const put = await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: photo });
    await put.arrayBuffer();
    expect(put.status).toBe(200);
    const started = await keyApi(twin.apiUrl, key, 'POST', '/generate-ai-image', {
      body: { imageKey: upload.body.imageKey, productType: 'clothing', prompt: 'young female model' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const generation = await finished(key, started.body.generationId);
    expect(generation.status).toBe('complete');
    const image = await fetch(generation.result_url!);
    await image.arrayBuffer();
    expect(image.status).toBe(200);
  });

  it('the whole quick start runs as written on a bare shell (no uuidgen): an item, a photo, a video and an upload', async () => {
    const user = await createUser(twin);
    const { key } = await createApiKey(twin.apiUrl, user);
    const examples = quickStartExamples(twin.apiUrl, LIMITS).filter((step) => step.shell);
    expect(examples.map((step) => step.code).join('\n')).not.toContain('uuidgen');
    // The steps exactly as the API screen shows them, one after the other in one shell, with the caller's own key.
    const script = examples.map((step) => step.code.replace('ml_your_key_here', key)).join('\n');
    const folder = await mkdtemp(join(tmpdir(), 'quick-start-'));
    try {
      await writeFile(join(folder, 'shirt.jpg'), await tshirtPhoto());
      await writeFile(join(folder, 'product.jpg'), await tshirtPhoto(640, 800));
      const { stdout, stderr } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: folder, timeout: 240_000 });
      expect(stderr).toBe('');
      // The last step prints the generation id it started (the profile step's JSON before it ends in no newline).
      const generationId = /([0-9a-z_-]{8,})\s*$/i.exec(stdout)?.[1] ?? '';
      expect((await finished(key, generationId)).status).toBe('complete');
      const photo = await readFile(join(folder, 'on-model.png'));
      expect(photo.subarray(1, 4).toString('latin1')).toBe('PNG');
      const video = await readFile(join(folder, 'loop.mp4'));
      expect(video.subarray(4, 8).toString('latin1')).toBe('ftyp');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 300_000);

  it("the quick start's polling says what went wrong when the first call is refused, instead of ending in silence", async () => {
    const user = await createUser(twin);
    const { key } = await createApiKey(twin.apiUrl, user);
    const poll = quickStartExamples(twin.apiUrl, LIMITS).find((step) => step.title.startsWith('4.'))!;
    const folder = await mkdtemp(join(tmpdir(), 'quick-start-'));
    try {
      const { stderr } = await run('bash', ['-euo', 'pipefail', '-c', poll.code], {
        cwd: folder,
        env: { ...process.env, ML_KEY: key, ML_API: `${twin.apiUrl}/v1`, GEN: 'no-such-generation' },
        timeout: 30_000,
      });
      expect(stderr).toMatch(/^No photo: \{.*NOT_FOUND/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
