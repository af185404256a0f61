// What the library screens weigh on a phone with a real library: a throw-away twin, one seller with four 12 MP phone
// photos (about 2.5 MB each, test/fixtures phonePhoto) and a small tee in Clothing and one on-model photo, then each
// screen that shows library tiles loaded cold at 390×844 in Debian's Chromium, scrolled to its end
// (test/support/screen-weight.ts, what the phone sweep's budgets measure). Prints KB per screen and the three largest
// responses of each, and `phone-kb.<screen> X`.
// Usage: npx tsx bench/phone-bytes.ts [--no-build]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright';
import { startTwin } from '../lib/local/twin.js';
import { phonePhoto, tshirtPhoto } from '../test/fixtures/local-engine-images.js';
import { launchChromium } from '../test/support/chromium.js';
import { weighScreen } from '../test/support/screen-weight.js';
import { addClothingItem, onModelPhoto } from '../test/support/sources.js';
import { createUser, TEST_PASSWORD } from '../test/support/users.js';

const root = resolve(import.meta.dirname, '..');
// The twin's functions log every connection and request at info: only warnings, so the figures stay readable.
process.env.LOG_LEVEL ??= 'warn';
const PHONE = { width: 390, height: 844 };

const SCREENS: { route: string; name: string; ready: (page: Page) => Locator }[] = [
  { route: '/studio/clothing', name: 'clothing', ready: (page) => page.getByRole('list', { name: 'Clothing items' }) },
  { route: '/studio/generate/batch-generation', name: 'batch', ready: (page) => page.getByRole('button', { name: 'Add to Batch' }) },
  { route: '/studio/generate/image-generation', name: 'image', ready: (page) => page.getByRole('button', { name: 'Generate Image' }) },
  { route: '/studio/generate/packshot', name: 'packshot', ready: (page) => page.getByRole('button', { name: /^Make packshot/ }) },
  { route: '/studio/generate/video-generation', name: 'video', ready: (page) => page.getByRole('button', { name: 'Generate Video' }) },
];

if (!process.argv.includes('--no-build')) {
  const { execFileSync } = await import('node:child_process');
  execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-phone-bytes-'));
const twin = await startTwin({ dataDir, webRoot: join(root, 'web/dist'), stripe: false, throttle: false, log: () => undefined });
const browser = await launchChromium();
try {
  const user = await createUser(twin.info);
  const tee = await addClothingItem(twin.info.apiUrl, user, await tshirtPhoto(600, 700), 'Cotton tee');
  const photo = await phonePhoto();
  for (const view of ['front', 'back', 'side', 'detail']) await addClothingItem(twin.info.apiUrl, user, photo, `Navy tee ${view}`);
  await onModelPhoto(twin.info.apiUrl, user, tee.id, 180_000);

  const context = await browser.newContext({ viewport: PHONE, baseURL: twin.info.webUrl });
  const page = await context.newPage();
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/dashboard');
  // Once, so that a library stored before thumbnails has them made (the app asks for them), as a seller would see it.
  await weighScreen(page, SCREENS[0]!.route, SCREENS[0]!.ready);

  console.log(`\nBytes on the wire, cold, at ${PHONE.width}×${PHONE.height} (load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`);
  const figures: string[] = [];
  for (const screen of SCREENS) {
    const weight = await weighScreen(page, screen.route, screen.ready);
    console.log(`  ${screen.route.padEnd(36)} ${String(weight.kb).padStart(6)} KB   largest: ${weight.largest.join(', ')}`);
    figures.push(`phone-kb.${screen.name} ${weight.kb}`);
  }
  console.log(`\n${figures.join('\n')}`);
  await context.close();
} finally {
  await browser.close();
  await twin.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
