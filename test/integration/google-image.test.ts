// On-model photos with Gemini (PROVIDER_IMAGE=google) on a twin of this file's own, configured as a cloud stage's
// functions are with only the API's address pointing at the loopback fake of the Gemini API (test/support/
// fake-google.ts): the messages a buyer reads are the truth of what happened. A description the text model declines
// to enrich is used as written and the History row says so; a result Google withholds as recitation or as personal
// data gets its own message (not the generic one), and the credit comes back.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_MESSAGES, SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import type { Generation } from '../../lambdas/contracts/generations.js';
import { resultNotes } from '../../lambdas/contracts/preview.js';
import { GOOGLE_DEFAULTS } from '../../lambdas/providers/google/models.js';
import { startTwin, type Twin } from '../../lib/local/twin.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { FAKE_GOOGLE_API_KEY, startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import type { TwinInfo } from '../support/global-twin.js';
import { createUser, type TestUser } from '../support/users.js';

let twin: Twin;
let info: TwinInfo;
let fake: FakeGoogle;
let dataDir: string;
let photo: Buffer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'modelloop-google-image-'));
  fake = await startFakeGoogle();
  Object.assign(process.env, { PROVIDER_IMAGE: 'google', GOOGLE_API_KEY: FAKE_GOOGLE_API_KEY, GOOGLE_API_BASE_URL: fake.baseUrl });
  twin = await startTwin({ dataDir: join(dataDir, 'twin') });
  info = twin.info;
  photo = await tshirtPhoto(600, 700);
}, 600_000);

afterAll(async () => {
  await twin?.stop();
  await fake?.close();
  for (const name of ['PROVIDER_IMAGE', 'GOOGLE_API_KEY', 'GOOGLE_API_BASE_URL']) delete process.env[name];
  rmSync(dataDir, { recursive: true, force: true });
});

const balanceOf = async (user: TestUser) => (await api(info.apiUrl, 'GET', '/profile', { user })).body.current_credits;

async function photoOf(user: TestUser, prompt: string, promptEnhance = false): Promise<Generation> {
  const answer = await api(info.apiUrl, 'POST', '/generate-ai-image', {
    user,
    body: { imageData: `data:image/jpeg;base64,${photo.toString('base64')}`, productType: 'clothing', prompt, promptEnhance, imageSize: '1k' },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; ) {
    const { body } = await api<Generation>(info.apiUrl, 'GET', `/generations/${answer.body.generationId}`, { user });
    if (body.status !== 'processing') return body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the photo did not settle');
}

describe('Gemini on-model photos tell the buyer what happened', () => {
  it('says on the History row that the description was used as written when the text model declined to enrich it', async () => {
    const user = await createUser(info);
    const done = await photoOf(user, 'a woman in a red coat, refuse enrichment', true);
    expect(done).toMatchObject({ status: 'complete', ai_model: expect.stringContaining(`google:${GOOGLE_DEFAULTS.imageModel}`) });
    // The text model was asked (on the current default, without temperature), and declined.
    const asked = fake.requests.filter((request) => request.path === `/v1beta/models/${GOOGLE_DEFAULTS.textModel}:generateContent`);
    expect(asked.at(-1)!.body.generationConfig).not.toHaveProperty('temperature');
    // The History list's row carries the note, and the row shows it (the web app renders resultNotes of the row).
    const { body } = await api(info.apiUrl, 'GET', '/generations', { user });
    const row = body.items.find((item: Generation) => item.id === done.id);
    expect(row.not_rendered).toEqual([PROVIDER_MESSAGES.notEnrichedRefused]);
    expect(resultNotes(row)).toEqual([`${PROVIDER_MESSAGES.notEnrichedRefused}.`]);
    // An enrichment that went through leaves no note.
    const enriched = await photoOf(user, 'a man in a grey suit', true);
    expect(resultNotes(enriched)).toEqual([]);
  });

  it.each([
    ['recite please', PROVIDER_MESSAGES.recitation],
    ['personal data', PROVIDER_MESSAGES.personalData],
  ])('answers a result withheld for "%s" with its own message and refunds it', async (words, message) => {
    const user = await createUser(info);
    const failed = await photoOf(user, `a woman, ${words}`);
    expect(failed).toMatchObject({ status: 'failed', error_message: message });
    expect(await balanceOf(user)).toBe(SIGNUP_CREDITS);
  });
});
