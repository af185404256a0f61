// A screen's weight on the wire: one cold load (no browser cache) in Chromium, scrolled to its end, every response's
// encoded length summed as Chromium reports it. The phone sweep holds each screen to a budget with it
// (test/e2e/phone-layout.test.ts); bench/phone-bytes.ts prints the library screens' figures.
import type { Locator, Page } from 'playwright';

/** What one cold load of a screen moved over the network, in KB, and its largest responses. */
export interface ScreenWeight {
  route: string;
  kb: number;
  largest: string[];
}

/**
 * Loads `route` with the browser cache off, waits for `ready`, scrolls the page to its end (lazy pictures load as a
 * seller scrolling would make them) and waits until no request is in flight for a moment; sums every response's
 * encoded length as Chromium reports it (headers and compressed body).
 */
export async function weighScreen(page: Page, route: string, ready: (page: Page) => Locator): Promise<ScreenWeight> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const urls = new Map<string, string>();
  const sizes = new Map<string, number>();
  const inFlight = new Set<string>();
  let lastChange = Date.now();
  cdp.on('Network.requestWillBeSent', (event) => {
    urls.set(event.requestId, event.request.url);
    inFlight.add(event.requestId);
    lastChange = Date.now();
  });
  cdp.on('Network.loadingFinished', (event) => {
    sizes.set(event.requestId, event.encodedDataLength);
    inFlight.delete(event.requestId);
    lastChange = Date.now();
  });
  cdp.on('Network.loadingFailed', (event) => {
    inFlight.delete(event.requestId);
    lastChange = Date.now();
  });
  const quiet = async () => {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await page.waitForTimeout(100)) {
      if (inFlight.size === 0 && Date.now() - lastChange > 750) return;
    }
  };
  try {
    await page.goto(route);
    await ready(page).waitFor({ state: 'visible', timeout: 60_000 });
    await quiet();
    for (let step = 0; step < 20; step++) {
      const more = await page.evaluate(() => {
        const { scrollY, innerHeight } = globalThis as any;
        const end = (globalThis as any).document.documentElement.scrollHeight;
        (globalThis as any).scrollBy(0, innerHeight);
        return scrollY + innerHeight < end;
      });
      await quiet();
      if (!more) break;
    }
  } finally {
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    await cdp.detach();
  }
  const total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  const largest = [...sizes.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([id, size]) => `${Math.round(size / 1024)} KB ${new URL(urls.get(id) ?? 'about:blank').pathname.slice(-40)}`);
  return { route, kb: Math.round(total / 1024), largest };
}
