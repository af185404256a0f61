// Long work shows its progress: a 4K upscale (ESRGAN, then Lanczos to the size) shows the stage's measured expected
// time and a progress bar filling over it, as videos do, at desktop and phone sizes; the figure comes from config.json
// (contracts/expected-wait.ts), not from the page.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MEASURED_UPSCALE_MEDIAN_SECONDS } from '../../lambdas/contracts/expected-wait.js';
import { DESKTOP, openPage, PHONE, signUpInUi, uniqueEmail, useChromium } from './harness.js';
import type { Browser } from 'playwright';

let browser: Browser;
useChromium((started) => (browser = started));

describe('upscale progress', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ])('a 4K upscale shows the measured expected time and a filling progress bar (%s)', async (_name, viewport) => {
    const { page, errors, close } = await openPage(browser, viewport);
    await signUpInUi(page, uniqueEmail('upscale.progress'));
    const config = await (await page.request.get('/config.json')).json();
    expect(config.expectedUpscaleSeconds).toEqual(MEASURED_UPSCALE_MEDIAN_SECONDS.local);

    await page.goto('/studio/generate/upscale');
    const picture = await sharp({ create: { width: 720, height: 1280, channels: 3, background: { r: 200, g: 120, b: 90 } } }).png().toBuffer();
    await page.getByLabel('Upload an image').setInputFiles({ name: 'look.png', mimeType: 'image/png', buffer: picture });
    await page.getByText('4K', { exact: true }).click();
    await page.getByRole('button', { name: 'Upscale to 4K' }).click();

    const expected = page.getByTestId('work-expected');
    await expected.waitFor({ timeout: 30_000 });
    // 9.5 s said the way people say it (web/src/lib/expected-wait.ts aboutDuration).
    expect(MEASURED_UPSCALE_MEDIAN_SECONDS.local!['4k']).toBe(9.5);
    expect((await expected.innerText()).trim()).toBe('· usually ready in about 10 seconds');
    const bar = page.getByRole('status').getByRole('progressbar');
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThan(0);
    const width = await page.evaluate<number>('Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)');
    expect(width).toBeLessThanOrEqual(viewport.width);
    expect(errors).toEqual([]);
    await close();
  }, 180_000);

  it('disables a size that would not make the picture larger, says why on the screen, and upscales to the next one', async () => {
    const { page, errors, close } = await openPage(browser, DESKTOP);
    await signUpInUi(page, uniqueEmail('upscale.not.larger'));
    await page.goto('/studio/generate/upscale');
    // "Red polka dot dress · 2K 1:1": a 2048×2048 picture, which is already 2K.
    const square = await sharp({ create: { width: 2048, height: 2048, channels: 3, background: { r: 190, g: 30, b: 40 } } }).png().toBuffer();
    await page.getByLabel('Upload an image').setInputFiles({ name: 'dress.png', mimeType: 'image/png', buffer: square });
    const twoK = page.getByRole('radio', { name: /2K/ });
    await expect.poll(() => twoK.isDisabled(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByRole('radio', { name: /4K/ }).isChecked()).toBe(true);
    expect((await page.getByTestId('upscale-refusals').innerText()).trim()).toBe(
      'This picture is already 2048×2048: 2K at its ratio is 2048×2048, not larger. Choose a larger size.',
    );
    expect(await page.getByTestId('upscale-size-4k').innerText()).toBe('4096×4096');
    expect(await page.getByRole('button', { name: 'Upscale to 4K' }).isEnabled()).toBe(true);
    expect(errors).toEqual([]);
    await close();
  }, 120_000);
});
