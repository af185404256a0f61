// Shared plumbing of the e2e tests: Debian's Chromium driven by the playwright library against the local twin that
// test/support/global-twin.ts starts, plus the few UI steps most tests need (sign up, sign in, toasts, axe).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright';
import { afterAll, beforeAll, inject } from 'vitest';
import { paths } from '../../web/src/lib/paths.js';
import { launchChromium } from '../support/chromium.js';
import type { TwinInfo } from '../support/global-twin.js';
import { TEST_PASSWORD, waitForCode } from '../support/users.js';

export { TEST_PASSWORD, launchChromium };

const root = resolve(import.meta.dirname, '../..');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

const ROUTE_TABLE = readFileSync(join(root, 'web/src/app/app-routes.tsx'), 'utf8');
const routesIn = (source: string) => [...source.matchAll(/<Route\s+path=\{paths\.(\w+)\}/g)].map((match) => paths[match[1] as keyof typeof paths]);

/** Each `<Route path={paths.name}>` of the app's route table, as its address (the catch-all `path="*"` is not a screen). */
export const TABLE_ROUTES: readonly string[] = routesIn(ROUTE_TABLE);

/** Every screen that needs a session: the table's routes inside `<RequireAuth />`, read from the table itself. */
export const SIGNED_IN_ROUTES: readonly string[] = routesIn(ROUTE_TABLE.slice(ROUTE_TABLE.indexOf('<RequireAuth />'), ROUTE_TABLE.indexOf('path="*"')));

export function twin(): TwinInfo {
  return inject('twin');
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/** The twin serves web/dist: build it when it is missing or older than the sources, so `vitest --project e2e` works alone. */
export function ensureWebBuilt(): void {
  const sources = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'lambdas/contracts'].map((path) => join(root, path));
  let builtAt = 0;
  try {
    builtAt = statSync(join(root, 'web/dist/index.html')).mtimeMs;
  } catch {
    // not built yet
  }
  if (builtAt > Math.max(...sources.map(newestMtime))) return;
  execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}


export interface TestPage {
  page: Page;
  /** Uncaught exceptions in the page; a test ends by expecting none. */
  errors: string[];
  close: () => Promise<void>;
}

/** A page in its own browser context (own localStorage, so its own session). */
export async function openPage(browser: Browser, viewport = DESKTOP): Promise<TestPage> {
  const context = await browser.newContext({ viewport, baseURL: twin().webUrl });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors, close: () => context.close() };
}

/** The toast whose text contains `text` (sonner renders each as [data-sonner-toast]). */
export function toast(page: Page, text: string) {
  return page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
}

export function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/**
 * Signs up through /auth, with the confirmation code the twin wrote to its mailbox; ends on the dashboard. `atStep`,
 * when given, runs with the sign-up form filled and again with the code filled in (e.g. to measure the screen).
 */
export async function signUpInUi(page: Page, email: string, password = TEST_PASSWORD, atStep?: (step: 'form filled' | 'code filled') => Promise<void>): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
  await page.getByRole('heading', { name: 'Get Started' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await atStep?.('form filled');
  await page.getByRole('button', { name: 'Create Account' }).click();
  const codeField = page.getByLabel('Verification code');
  await codeField.waitFor();
  await codeField.fill(await waitForCode(twin().mailboxFile, email));
  await atStep?.('code filled');
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
  await page.waitForURL('**/dashboard');
}

/** Signs in through /auth with e-mail and password; returns once the form has been submitted. */
export async function submitSignIn(page: Page, email: string, password = TEST_PASSWORD): Promise<void> {
  await page.goto('/auth');
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

export async function signInInUi(page: Page, email: string, password = TEST_PASSWORD): Promise<void> {
  await submitSignIn(page, email, password);
  await page.waitForURL('**/dashboard');
}

/** The codes the twin's mailbox holds for an address, oldest first. */
export function mailboxCodes(email: string): string[] {
  const file = twin().mailboxFile;
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { email: string; code: string })
    .filter((entry) => entry.email.toLowerCase() === email.toLowerCase())
    .map((entry) => entry.code);
}

/** Waits for a code delivered after the first `seen` ones (e.g. a password-reset code after the sign-up code). */
export async function waitForNewCode(email: string, seen: number, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const code = mailboxCodes(email)[seen];
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`No new code for ${email} after ${seen}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

export async function openAccountMenu(page: Page) {
  await page.getByRole('button', { name: /^Account menu/ }).click();
  return page.getByRole('menu');
}

export async function signOutInUi(page: Page): Promise<void> {
  const menu = await openAccountMenu(page);
  await menu.getByRole('menuitem', { name: 'Sign Out' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core in the page and returns the serious and critical violations. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  const axe = (await import('axe-core')).default;
  await page.addScriptTag({ content: axe.source });
  const violations = await page.evaluate(async () => {
    const { axe: inPage } = globalThis as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } };
    const result = await inPage.run();
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target })),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** Starts Chromium once for a test file (building the web app first when it is stale) and closes it afterwards. */
/** The web app's poll interval (localStorage), turned down so tests don't wait on the production interval. */
const POLL_INTERVAL_KNOB = 'modelloop.videoPollIntervalMs';

/**
 * For the whole file: Chromium and one page signed up in the UI as a new user with `email`; `receive` gets the page
 * (and the browser) before `prepare` runs once, so `prepare` may use what `receive` stored.
 */
export function useSignedInPage(
  email: string,
  receive: (session: TestPage, browser: Browser) => void,
  options: { fastPolling?: boolean; prepare?: () => Promise<void> } = {},
): void {
  let browser: Browser | undefined;
  let session: TestPage | undefined;
  beforeAll(async () => {
    ensureWebBuilt();
    browser = await launchChromium();
    session = await openPage(browser);
    if (options.fastPolling) await session.page.addInitScript((key) => (globalThis as any).localStorage.setItem(key, '500'), POLL_INTERVAL_KNOB);
    await signUpInUi(session.page, email);
    receive(session, browser);
    await options.prepare?.();
  });
  afterAll(async () => {
    await session?.close();
    await browser?.close();
  });
}

export function useChromium(receive: (browser: Browser) => void): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    ensureWebBuilt();
    browser = await launchChromium();
    receive(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });
}
