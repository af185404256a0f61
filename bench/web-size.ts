// What the landing page costs on a first visit, and how fast it paints.
//  1. What each part of the first download weighs, gzip -9: the critical path from the Vite manifest (the entry chunk,
//     every chunk it imports statically, their CSS).
//  2. In Debian's Chromium (launched as the e2e tests do), against the twin's own gateway serving web/dist (brotli or
//     gzip, immutable assets): every JS and CSS file the browser fetches for / (so also anything loaded after the
//     first render), the bytes that crossed the wire, and the Largest Contentful Paint of a cold load (fresh browser
//     context, so empty cache and new connections) for two profiles:
//       desktop: 1280×800, no throttling;
//       phone:   412×823 at 1.75× (Lighthouse's mobile), 4× CPU slowdown, 1.6 Mbps down / 750 kbps up, 150 ms RTT.
//     The median of --runs loads (default 5) after one uncounted warm-up load (the server's compressed copies made,
//     as a CDN's cache would hold them).
// Ends with `lcp-ms.desktop X`, `lcp-ms.phone X` and `landing-kb X` (gzip KB of the JS + CSS Chromium fetched for /,
// CSS inlined into the page included).
// Usage: npx tsx bench/web-size.ts [--no-build] [--runs N]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright';
import { PRICING_TIER_SEED } from '../lambdas/contracts/catalog.js';
import { startGateway } from '../lib/local/gateway.js';
import { CHROMIUM_PATH, launchChromium } from '../test/support/chromium.js';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'web', 'dist');
const manifestPath = join(dist, '.vite', 'manifest.json');
const runsIndex = process.argv.indexOf('--runs');
const RUNS = runsIndex > 0 ? Math.max(1, Number(process.argv[runsIndex + 1]) || 5) : 5;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipSize = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function build(): void {
  execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}

function criticalPath(manifest: Manifest): string[] {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error(`${manifestPath} has no entry chunk`);
  const seen = new Set<string>();
  const js: string[] = [];
  const css = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    js.push(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey);
  return [...js, ...css];
}

function printTable(title: string, files: string[]): number {
  console.log(`\n${title}`);
  let js = 0;
  let css = 0;
  for (const file of files) {
    const raw = statSync(join(dist, file)).size;
    const gz = gzipSize(file);
    if (file.endsWith('.css')) css += gz;
    else js += gz;
    console.log(`  ${file.padEnd(48)} ${kb(raw).padStart(10)} raw ${kb(gz).padStart(10)} gzip`);
  }
  console.log(`  ${'JS (gzip)'.padEnd(48)} ${kb(js).padStart(26)}`);
  console.log(`  ${'CSS (gzip)'.padEnd(48)} ${kb(css).padStart(26)}`);
  console.log(`  ${'JS + CSS (gzip)'.padEnd(48)} ${kb(js + css).padStart(26)}`);
  return js + css;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

interface Profile {
  name: 'desktop' | 'phone';
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  isMobile: boolean;
  cpuSlowdown?: number;
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}

const PROFILES: Profile[] = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false },
  {
    name: 'phone',
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    cpuSlowdown: 4,
    // CDP takes bytes per second and the round trip in ms.
    network: { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
  },
];

interface Load {
  lcpMs: number;
  lcpElement: string;
  /** JS and CSS paths under the site root, in the order fetched. */
  files: string[];
  /** Bytes of JS and CSS as they crossed the wire (compressed), with headers. */
  wireBytes: number;
}

async function coldLoad(browser: Browser, baseUrl: string, profile: Profile): Promise<Load> {
  const context = await browser.newContext({
    viewport: profile.viewport,
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: profile.isMobile,
    hasTouch: profile.isMobile,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    if (profile.network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
    if (profile.cpuSlowdown) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    const files: string[] = [];
    const requestPaths = new Map<string, string>();
    let wireBytes = 0;
    cdp.on('Network.responseReceived', ({ requestId, response }) => {
      const path = new URL(response.url).pathname;
      if (/\.(js|css)$/.test(path)) requestPaths.set(requestId, path.replace(/^\//, ''));
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const path = requestPaths.get(requestId);
      if (!path) return;
      files.push(path);
      wireBytes += encodedDataLength;
    });
    await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1 }).waitFor();
    // Runs in the page (the bench's tsconfig has no DOM types, hence the loose types).
    const lcp = await page.evaluate(
      () =>
        new Promise<{ ms: number; element: string }>((done) => {
          new PerformanceObserver((list) => {
            const last = list.getEntries().at(-1) as unknown as { startTime: number; element?: { tagName: string; id: string } | null };
            const element = last.element;
            done({
              ms: last.startTime,
              element: element ? `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}` : '?',
            });
          }).observe({ type: 'largest-contentful-paint' as never, buffered: true });
        }),
    );
    return { lcpMs: lcp.ms, lcpElement: lcp.element, files: [...new Set(files)], wireBytes };
  } finally {
    await context.close();
  }
}

if (!process.argv.includes('--no-build') || !existsSync(manifestPath)) build();
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
const critical = criticalPath(manifest);
printTable('Landing page critical path (entry + static imports + CSS), from the Vite manifest:', critical);

if (!existsSync(CHROMIUM_PATH)) {
  console.log(`\n(${CHROMIUM_PATH} not found: the in-browser measurement is skipped)`);
  const total = critical.reduce((sum, file) => sum + gzipSize(file), 0);
  console.log(`landing-kb ${(total / 1024).toFixed(1)}`);
} else {
  const gateway = await startGateway({
    port: await freePort(),
    issuer: 'http://127.0.0.1:9/bench',
    jwksUri: 'http://127.0.0.1:9/bench/.well-known/jwks.json',
    audience: 'bench',
    allowedOrigins: [],
    // The signed-out landing page reads the stage's config.json (the measured video wait) and the public pricing tiers
    // (its pack lines); it calls nothing else. The bench answers those two from the seeds and refuses any other call.
    runtimeConfig: () => ({
      apiUrl: 'http://127.0.0.1:9/api',
      region: 'local',
      userPoolId: 'bench',
      userPoolClientId: 'bench',
      host: 'local',
      testPayments: true,
      expectedVideoSeconds: 60,
    }),
    webRoot: dist,
    invoke: async (name) => {
      if (name !== 'list-pricing-tiers') throw new Error(`the landing page called ${name}`);
      return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: PRICING_TIER_SEED.map((tier) => ({ ...tier, is_active: true })) }) };
    },
    log: (line) => console.error(line),
  });
  const browser = await launchChromium();
  try {
    const baseUrl = `http://127.0.0.1:${new URL(gateway.url).port}`;
    await coldLoad(browser, baseUrl, PROFILES[0]!); // warm-up: the gateway's compressed copies are made
    await new Promise((done) => setTimeout(done, 2000)); // and its best brotli copies, in the background
    const results = new Map<Profile['name'], Load[]>();
    for (const profile of PROFILES) {
      const loads: Load[] = [];
      for (let run = 0; run < RUNS; run++) loads.push(await coldLoad(browser, baseUrl, profile));
      results.set(profile.name, loads);
    }
    const fetched = results.get('desktop')![0]!.files;
    let landingBytes = printTable('JS and CSS Chromium fetched for / (gzip -9 of each file):', fetched);
    // CSS inlined into the page counts as CSS of the first download too.
    const html = await (await fetch(`${baseUrl}/`)).text();
    const inlineCss = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]!).join('');
    if (inlineCss) {
      const inlineGzip = gzipSync(inlineCss, { level: 9 }).length;
      landingBytes += inlineGzip;
      console.log(`  ${'index.html <style> (inline CSS)'.padEnd(48)} ${kb(inlineCss.length).padStart(10)} raw ${kb(inlineGzip).padStart(10)} gzip`);
      console.log(`  ${'JS + CSS (gzip), inline CSS included'.padEnd(48)} ${kb(landingBytes).padStart(26)}`);
    }
    const late = fetched.filter((file) => !critical.includes(file));
    if (late.length > 0) console.log(`  of which loaded after the first render: ${late.join(', ')}`);

    console.log(`\nCold loads of / in Chromium against the twin's gateway, median of ${RUNS}:`);
    console.log(`  ${'profile'.padEnd(9)} ${'LCP ms'.padStart(7)}  ${'runs (ms)'.padEnd(40)} ${'JS+CSS on the wire'.padStart(19)}  LCP element`);
    const medians: Record<string, number> = {};
    for (const profile of PROFILES) {
      const loads = results.get(profile.name)!;
      const lcp = median(loads.map((load) => load.lcpMs));
      medians[profile.name] = lcp;
      console.log(
        `  ${profile.name.padEnd(9)} ${lcp.toFixed(0).padStart(7)}  ${loads.map((load) => load.lcpMs.toFixed(0)).join(' ').padEnd(40)} ` +
          `${kb(median(loads.map((load) => load.wireBytes))).padStart(19)}  ${loads[0]!.lcpElement}`,
      );
    }
    console.log(`\nlcp-ms.desktop ${medians.desktop!.toFixed(0)}`);
    console.log(`lcp-ms.phone ${medians.phone!.toFixed(0)}`);
    console.log(`landing-kb ${(landingBytes / 1024).toFixed(1)}`);
  } finally {
    await browser.close();
    await gateway.stop();
  }
}
