// The before/after slider of /auth: keyboard, pointer drag, rotation every 6 s with a 500 ms fade, paused on hover.
import type { Browser, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { openPage, PHONE, useChromium } from './harness.js';

let browser: Browser;
useChromium((started) => (browser = started));

const slider = (page: Page) => page.getByRole('slider', { name: 'Before and after comparison divider' });
const value = async (page: Page) => Number(await slider(page).getAttribute('aria-valuenow'));
const afterImage = (page: Page) => page.getByTestId('before-after-frame').locator('img').nth(1);

describe('before/after slider', () => {
  it('moves 5% per arrow key and returns to 50% on space', async () => {
    const { page, errors, close } = await openPage(browser);
    await page.goto('/auth');
    await slider(page).focus();
    expect(await value(page)).toBe(50);
    await page.keyboard.press('ArrowRight');
    expect(await value(page)).toBe(55);
    await page.keyboard.press('ArrowRight');
    expect(await value(page)).toBe(60);
    for (let step = 0; step < 4; step++) await page.keyboard.press('ArrowLeft');
    expect(await value(page)).toBe(40);
    await page.keyboard.press(' ');
    expect(await value(page)).toBe(50);
    // It stops at the edges.
    for (let step = 0; step < 12; step++) await page.keyboard.press('ArrowRight');
    expect(await value(page)).toBe(100);
    await expect(afterImage(page).getAttribute('style')).resolves.toContain('inset(0px 0px 0px 100%)');
    expect(errors).toEqual([]);
    await close();
  });

  it('follows a mouse drag and a touch drag', async () => {
    const { page, close } = await openPage(browser);
    await page.goto('/auth');
    const box = (await page.getByTestId('before-after-frame').boundingBox())!;
    const y = box.y + box.height * 0.8;
    await page.mouse.move(box.x + box.width * 0.5, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.25, y, { steps: 5 });
    await page.mouse.up();
    expect(Math.abs((await value(page)) - 25)).toBeLessThanOrEqual(1);

    // A touch drag arrives as pointer events of type "touch".
    await page.getByTestId('before-after-frame').evaluate((frame, { startX, endX, y: touchY }) => {
      const fire = (type: string, clientX: number) =>
        frame.dispatchEvent(
          new (globalThis as unknown as { PointerEvent: new (type: string, init: object) => Event }).PointerEvent(type, {
            pointerId: 7,
            pointerType: 'touch',
            isPrimary: true,
            clientX,
            clientY: touchY,
            bubbles: true,
          }),
        );
      fire('pointerdown', startX);
      fire('pointermove', (startX + endX) / 2);
      fire('pointermove', endX);
      fire('pointerup', endX);
    }, { startX: box.x + box.width * 0.25, endX: box.x + box.width * 0.75, y });
    expect(Math.abs((await value(page)) - 75)).toBeLessThanOrEqual(1);
    await close();
  });

  it('rotates through the three pairs every 6 s with a 500 ms fade, and pauses while hovered', async () => {
    const { page, close } = await openPage(browser);
    await page.clock.install();
    await page.goto('/auth');
    const caption = page.locator('figcaption');
    await expect(afterImage(page).getAttribute('src')).resolves.toBe('/demo/lehenga-red-after.svg');
    await expect(caption.textContent()).resolves.toContain('Lehenga');

    await page.clock.runFor(6_000);
    // Fading out: the pair changes once the 500 ms fade is over.
    await expect(page.getByTestId('before-after-frame').getAttribute('class')).resolves.toContain('opacity-0');
    await expect(afterImage(page).getAttribute('src')).resolves.toBe('/demo/lehenga-red-after.svg');
    await page.clock.runFor(500);
    await expect(afterImage(page).getAttribute('src')).resolves.toBe('/demo/lehenga-teal-after.svg');
    await expect(page.getByTestId('before-after-frame').getAttribute('class')).resolves.toContain('opacity-100');

    await page.clock.runFor(6_500);
    await expect(afterImage(page).getAttribute('src')).resolves.toBe('/demo/jewelry-after.svg');
    await expect(caption.textContent()).resolves.toContain('Jewelry');

    await page.getByTestId('before-after-frame').hover();
    await page.clock.runFor(20_000);
    await expect(afterImage(page).getAttribute('src')).resolves.toBe('/demo/jewelry-after.svg');

    await page.mouse.move(5, 5);
    await page.clock.runFor(6_500);
    await expect(afterImage(page).getAttribute('src')).resolves.toBe('/demo/lehenga-red-after.svg');
    await close();
  });

  it('is left out on a phone, where the form takes the screen', async () => {
    const { page, close } = await openPage(browser, PHONE);
    await page.goto('/auth');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    await expect(slider(page).isVisible()).resolves.toBe(false);
    await close();
  });
});
