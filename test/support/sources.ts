// The images a seller already has on the account, made the way the web app makes them: a library item (presigned
// upload, then registration) and a finished on-model photo (generate-ai-image, followed until it settles).
import { randomUUID } from 'node:crypto';
import { api } from './api.js';
import type { TestUser } from './users.js';

export async function addClothingItem(apiUrl: string, user: TestUser, photo: Buffer, name = 'Red tee'): Promise<{ id: string; image_url: string }> {
  const upload = await api(apiUrl, 'POST', '/clothing-items/upload-url', {
    user,
    body: { fileName: 'tshirt.jpg', contentType: 'image/jpeg', sizeBytes: photo.length },
  });
  if (upload.status !== 200) throw new Error(`upload-url answered ${upload.status}`);
  const put = await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: photo });
  if (!put.ok) throw new Error(`the upload answered ${put.status}`);
  const item = await api(apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: upload.body.imageKey, name } });
  if (item.status !== 201) throw new Error(`registering the item answered ${item.status}`);
  return item.body;
}

/** A complete on-model photo of the item; answers its generation id. */
export async function onModelPhoto(apiUrl: string, user: TestUser, clothingItemId: string, timeoutMs = 90_000): Promise<string> {
  const started = await api(apiUrl, 'POST', '/generate-ai-image', {
    user,
    body: { clothingItemId, prompt: 'young female model' },
    headers: { 'idempotency-key': randomUUID() },
  });
  if (started.status !== 200) throw new Error(`generate-ai-image answered ${started.status}: ${JSON.stringify(started.body)}`);
  const id: string = started.body.generationId;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api(apiUrl, 'GET', `/generations/${id}`, { user });
    if (body.status === 'complete') return id;
    if (body.status !== 'processing') throw new Error(`generation ${id} ended ${body.status}`);
    if (Date.now() > deadline) throw new Error(`generation ${id} still processing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
