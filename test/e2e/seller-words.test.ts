// The studio in a seller's words (issue 41 items 8, 9, 11) in real Chromium against the twin: the Edit, Upscale and
// Video pickers name each past result by product, model and size; Upscale shows the size the chosen picture really
// gets (its ratio kept) before the charge, and Prices says the size follows the ratio; an edit in everyday words is
// understood, a refused one stays beside the field with the accepted phrasings, and the preview note lists whole
// phrases only.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { signIn, type TestUser } from '../support/users.js';
import { PHONE, openPage, signInInUi, toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';
import type { Browser } from 'playwright';

const email = uniqueEmail('seller-words');
const TEE = 'Blue Logo Tee · Maya · 2K 9:16';
const NECKLACE = 'Gold Bead Necklace · 1K 3:4';
let session: TestPage;
let browser: Browser;
let user: TestUser;

async function finished(id: string): Promise<{ status: string; width: number; height: number }> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { body } = await api(twin().apiUrl, 'GET', `/generations/${id}`, { user });
    if (body.status !== 'processing' || Date.now() > deadline) return body;
    await new Promise((done) => setTimeout(done, 300));
  }
}

async function photo(body: Record<string, unknown>): Promise<string> {
  const started = await api(twin().apiUrl, 'POST', '/generate-ai-image', { user, body, headers: { 'idempotency-key': randomUUID() } });
  if (started.status !== 200) throw new Error(JSON.stringify(started.body));
  expect((await finished(started.body.generationId)).status).toBe('complete');
  return started.body.generationId;
}

useSignedInPage(email, (signedIn, chromium) => ((session = signedIn), (browser = chromium)), {
  prepare: async () => {
    user = await signIn(twin(), email);
    // Enough credits for the tour (the twin's labelled test payment).
    expect((await api(twin().apiUrl, 'POST', '/credits/purchase', { user, body: { credits: 20 }, headers: { 'idempotency-key': randomUUID() } })).status).toBe(200);
    const tee = await addClothingItem(twin().apiUrl, user, await tshirtPhoto(600, 700), 'Blue Logo Tee');
    const necklace = await addClothingItem(twin().apiUrl, user, await tshirtPhoto(500, 500), 'Gold Bead Necklace');
    const maya = await api(twin().apiUrl, 'POST', '/models', { user, body: { name: 'Maya', description: 'woman, late twenties, curly black hair' } });
    expect(maya.status).toBe(201);
    await photo({ clothingItemId: tee.id, modelId: maya.body.id, imageSize: '2k', aspectRatio: '9:16' });
    await photo({ clothingItemId: necklace.id, prompt: 'young female model', imageSize: '1k', aspectRatio: '3:4' });
  },
});

describe('names you can tell apart', () => {
  it('the Edit, Upscale and Video pickers name each result by product, model and size, under its thumbnail', { timeout: 120_000 }, async () => {
    const { page, errors } = session;
    for (const screen of ['/studio/generate/edit', '/studio/generate/upscale']) {
      await page.goto(screen);
      await page.getByRole('tab', { name: 'Past results' }).click();
      const results = page.getByRole('radiogroup', { name: 'Past results' });
      for (const name of [TEE, NECKLACE]) {
        const tile = results.getByRole('radio', { name, exact: true });
        await tile.waitFor();
        await tile.getByText(name, { exact: true }).waitFor();
        expect(await tile.locator('img').count()).toBe(1);
      }
      expect(await results.getByRole('radio', { name: /^Image from/ }).count()).toBe(0);
    }
    await page.goto('/studio/generate/video-generation');
    await page.getByRole('button', { name: 'Your images' }).click();
    const videoResults = page.getByRole('radiogroup', { name: 'Past results' });
    for (const name of [TEE, NECKLACE]) await videoResults.getByRole('radio', { name, exact: true }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('sizes that match', () => {
  it("Upscale shows the size a 3:4 picture really gets before the charge, makes exactly that, and Prices says sizes follow the ratio", { timeout: 180_000 }, async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/upscale');
    await page.getByTestId('upscale-size-note').filter({ hasText: "follows your picture’s ratio" }).waitFor();
    await page.getByRole('tab', { name: 'Past results' }).click();
    await page.getByRole('radio', { name: NECKLACE, exact: true }).click();
    // Each named size in the picture's own ratio, as image generation makes it: 3:4 at 2K is 1920×2560.
    for (const [name, size] of [['2k', '1920×2560'], ['4k', '3840×5120'], ['8k', '7680×10240']] as const) {
      await page.getByTestId(`upscale-size-${name}`).filter({ hasText: size }).waitFor();
    }
    await page.getByTestId('upscale-size-note').filter({ hasText: 'Your 960×1280 picture keeps its ratio: 2K makes it 1920×2560.' }).waitFor();
    await page.getByRole('button', { name: 'Upscale to 2K' }).click();
    await page.getByTestId('generation-result').waitFor({ timeout: 120_000 });
    const { body } = await api(twin().apiUrl, 'GET', '/generations?type=image&limit=1', { user });
    expect([body.items[0].width, body.items[0].height]).toEqual([1920, 2560]);
    expect(body.items[0].title).toBe(`${NECKLACE} · Upscaled to 2K`);

    await page.goto('/dashboard/prices');
    await page.getByTestId('upscale-size-rule').filter({ hasText: "Upscale sizes follow the source's ratio" }).waitFor();
    await page.getByTestId('upscale-size-rule').filter({ hasText: '1920×2560 for 3:4' }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('edits in a seller\'s words', () => {
  it('"make it warmer" and "warmer light" are understood; a refusal stays beside the field with the accepted phrasings', { timeout: 180_000 }, async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/edit');
    await page.getByText('Instructions the local studio engine understands').waitFor();
    await page.getByRole('tab', { name: 'Past results' }).click();
    await page.getByRole('radio', { name: TEE, exact: true }).click();
    const field = page.getByLabel('Editing instructions');

    await field.fill('make it sparkle like gold');
    await page.getByRole('button', { name: 'Apply Edit' }).click();
    const refusal = page.getByTestId('edit-refusal');
    await refusal.getByText('Unsupported edit instruction "make it sparkle like gold"', { exact: false }).waitFor();
    await refusal.getByText('warmer light', { exact: false }).waitFor();
    // Still there after the toast has gone.
    await toast(page, 'Edit Failed').waitFor();
    await toast(page, 'Edit Failed').waitFor({ state: 'detached', timeout: 20_000 });
    expect(await refusal.isVisible()).toBe(true);
    expect(await field.getAttribute('aria-invalid')).toBe('true');

    await field.fill('warmer light');
    expect(await refusal.count()).toBe(0);
    await page.getByRole('button', { name: 'Apply Edit' }).click();
    await page.getByTestId('generation-result').waitFor({ timeout: 120_000 });
    const { body } = await api(twin().apiUrl, 'GET', '/generations?type=image&limit=1', { user });
    expect(body.items[0]).toMatchObject({ operation: 'edit', status: 'complete', title: `${TEE} · Edited` });

    const phrased = await api(twin().apiUrl, 'POST', '/edit-ai-image', {
      user,
      body: { imageUrl: body.items[0].id, editPrompt: 'make it warmer' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(phrased.status, JSON.stringify(phrased.body)).toBe(200);
    expect(errors).toEqual([]);
  });

  it('the "Not rendered by the preview engine" note lists whole phrases, never fragments (on a phone too)', { timeout: 180_000 }, async () => {
    const phone = await openPage(browser, PHONE);
    try {
      const { page } = phone;
      await signInInUi(page, email);
      await page.goto('/studio/generate/image-generation');
      await page.getByRole('radio', { name: 'Blue Logo Tee', exact: true }).click();
      await page.getByLabel('Model description').fill('young woman, late 20s, medium skin tone, long brown hair');
      await page.getByRole('button', { name: 'Generate Image' }).click();
      const note = page.getByTestId('not-rendered');
      await note.waitFor({ timeout: 120_000 });
      expect(await note.textContent()).toBe('Not rendered by the preview engine: young woman, late 20s.');
      expect(phone.errors).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
