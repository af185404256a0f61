// The public API can upload what it documents: an API key gets a generation upload URL under /v1 (listed in the
// served OpenAPI document), PUTs the file with exactly the headers answered, and generates with `imageKey` — once by
// hand and once by running the quick start's example exactly as the API screen shows it.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { quickStartExamples } from '../../web/src/features/api-keys/quick-start-examples.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { createApiKey, keyApi } from '../support/api-keys.js';
import { createUser } from '../support/users.js';

const twin = inject('twin');
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

  it("the quick start's upload example runs as written and makes a photo", async () => {
    const user = await createUser(twin);
    const { key } = await createApiKey(twin.apiUrl, user);
    const example = quickStartExamples(twin.apiUrl).find((step) => step.code.includes('/generation-uploads/upload-url'));
    expect(example, 'the quick start has an upload example').toBeDefined();
    const folder = await mkdtemp(join(tmpdir(), 'quick-start-'));
    try {
      await writeFile(join(folder, 'product.jpg'), await tshirtPhoto());
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', example!.code], {
        cwd: folder,
        env: { ...process.env, ML_KEY: key, ML_API: `${twin.apiUrl}/v1` },
      });
      const generationId = stdout.trim().split('\n').at(-1)!;
      expect(generationId).toMatch(/^[0-9a-z_-]{8,}$/i);
      expect((await finished(key, generationId)).status).toBe('complete');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
