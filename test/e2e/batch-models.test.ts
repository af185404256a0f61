// A batch whose entries each have their own saved model, in real Chromium against the twin: the summary names each
// entry's model, and every photo is made with its own entry's model (History says so), never the last one chosen.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BATCH_MESSAGES } from '../../lambdas/contracts/batch.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { api } from '../support/api.js';
import { addClothingItem } from '../support/sources.js';
import { signIn } from '../support/users.js';
import { toast, twin, uniqueEmail, useSignedInPage, type TestPage } from './harness.js';

const email = uniqueEmail('batch.models');
const MAYA = 'young woman, late 20s, long dark hair';
const LEO = 'man in his thirties, short dark hair';
let session: TestPage;
useSignedInPage(email, (signedIn) => (session = signedIn), {
  prepare: async () => {
    const user = await signIn(twin(), email);
    await addClothingItem(twin().apiUrl, user, await tshirtPhoto(600, 700), 'Blue Logo Tee');
    await addClothingItem(twin().apiUrl, user, await tshirtPhoto(600, 700), 'Gold Bead Necklace');
    for (const [name, description] of [['Maya', MAYA], ['Leo', LEO]]) {
      const created = await api(twin().apiUrl, 'POST', '/models', { user, body: { name, description }, headers: { 'idempotency-key': randomUUID() } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  },
});

describe('a batch of entries with their own models', () => {
  it('keeps each entry its model: in the summary, and on every photo in History', async () => {
    const { page, errors } = session;
    await page.goto('/studio/generate/batch-generation');
    await page.getByRole('heading', { name: 'Batch Generation' }).waitFor();
    for (const [item, model] of [['Blue Logo Tee', 'Maya'], ['Gold Bead Necklace', 'Leo']] as const) {
      await page.getByRole('radio', { name: item }).click();
      await page.getByLabel('Model', { exact: true }).selectOption({ label: model });
      await page.getByRole('button', { name: 'Front', exact: true }).click();
      await page.getByRole('button', { name: 'Add to Batch' }).click();
    }
    const entries = page.getByTestId('batch-entry');
    await entries.nth(1).waitFor();
    expect(await entries.allInnerTexts()).toEqual([
      expect.stringMatching(new RegExp(`Blue Logo Tee[\\s\\S]*Model: Maya · ${MAYA}`)),
      expect.stringMatching(new RegExp(`Gold Bead Necklace[\\s\\S]*Model: Leo · ${LEO}`)),
    ]);
    expect((await entries.allInnerTexts()).some((text) => text.includes('young female model'))).toBe(false);

    await page.getByLabel('Photo size').selectOption('1k');
    await page.getByRole('button', { name: 'Generate Batch' }).click();
    await toast(page, BATCH_MESSAGES.complete).waitFor({ timeout: 150_000 });

    await page.goto('/studio/generations');
    await page.getByRole('tab', { name: 'Batch' }).click();
    const rows = page.getByTestId('generation-row');
    await rows.nth(1).waitFor();
    const models = await rows.evaluateAll((elements) =>
      elements.map((element) => [
        /Blue Logo Tee|Gold Bead Necklace/.exec(element.textContent ?? '')?.[0],
        element.querySelector('[data-testid="generation-saved-model"]')?.textContent,
      ]),
    );
    expect(models.sort()).toEqual([
      ['Blue Logo Tee', 'Model: Maya'],
      ['Gold Bead Necklace', 'Model: Leo'],
    ]);
    expect(errors).toEqual([]);
  });
});
