// Prints what the landing page costs on a first visit, gzip-compressed:
//  1. the critical path from the Vite manifest: the entry chunk, every chunk it imports statically, and their CSS
//     (lazy chunks excluded);
//  2. when Chromium is installed, what a real browser fetches for / (critical path plus anything loaded after the
//     first render, such as the toast container), served from web/dist by a throw-away static server.
// Usage: npx tsx bench/web-size.ts [--no-build]
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

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
const CHROMIUM = '/usr/bin/chromium';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipSize = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

function build(): void {
  execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}

function criticalPath(manifest: Manifest): { js: string[]; css: string[] } {
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
  return { js, css: [...css] };
}

function printTable(title: string, files: string[]): { js: number; css: number } {
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
  console.log(`  ${'JS total (gzip)'.padEnd(48)} ${kb(js).padStart(26)}`);
  console.log(`  ${'CSS total (gzip)'.padEnd(48)} ${kb(css).padStart(26)}`);
  console.log(`  ${'JS + CSS (gzip)'.padEnd(48)} ${kb(js + css).padStart(26)}`);
  return { js, css };
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

function serveDist(): Promise<Server> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = normalize(join(dist, path));
    const target = file.startsWith(dist) && existsSync(file) && statSync(file).isFile() ? file : join(dist, 'index.html');
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(target)] ?? 'application/octet-stream' });
    response.end(readFileSync(target));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

async function measureInBrowser(): Promise<string[]> {
  const { chromium } = await import('playwright');
  const server = await serveDist();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    const fetched: string[] = [];
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (/\.(js|css)$/.test(path)) fetched.push(path.replace(/^\//, ''));
    });
    const { port } = server.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1 }).waitFor();
    return [...new Set(fetched)];
  } finally {
    await browser.close();
    server.close();
  }
}

if (!process.argv.includes('--no-build') || !existsSync(manifestPath)) build();
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
const critical = criticalPath(manifest);
const staticTotals = printTable('Landing page critical path (entry + static imports + CSS):', [...critical.js, ...critical.css]);

if (existsSync(CHROMIUM)) {
  const fetched = await measureInBrowser();
  const deferred = fetched.filter((file) => !critical.js.includes(file) && !critical.css.includes(file));
  if (deferred.length > 0) printTable('Also fetched by Chromium after the first render (lazy, not blocking):', deferred);
  const deferredJs = deferred.filter((file) => file.endsWith('.js')).reduce((sum, file) => sum + gzipSize(file), 0);
  console.log(`\nAll JS Chromium fetched for / (gzip): ${kb(staticTotals.js + deferredJs)}`);
} else {
  console.log(`\n(${CHROMIUM} not found: the in-browser measurement is skipped)`);
}
console.log(`\nLanding first-load JS (gzip): ${kb(staticTotals.js)}; CSS (gzip): ${kb(staticTotals.css)}`);
