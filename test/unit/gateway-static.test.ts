// The local gateway serves the built web app as CloudFront does: compressed when the browser accepts it, hashed
// assets cached for good, the shell revalidated (answered 304 while unchanged).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferredEncoding, startGateway, type Gateway } from '../../lib/local/gateway.js';

let webRoot: string;
let gateway: Gateway;
const script = `export const landing = ${JSON.stringify('ModelLoop '.repeat(2000))};\n`;
const shell = `<!doctype html><title>ModelLoop</title><script type="module" src="/assets/index-abc123.js"></script>${' '.repeat(2000)}`;

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

beforeAll(async () => {
  webRoot = await mkdtemp(join(tmpdir(), 'modelloop-gateway-static-'));
  await mkdir(join(webRoot, 'assets'));
  await writeFile(join(webRoot, 'index.html'), shell);
  await writeFile(join(webRoot, 'assets', 'index-abc123.js'), script);
  await writeFile(join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  gateway = await startGateway({
    port: await freePort(),
    issuer: 'http://127.0.0.1:1/pool',
    jwksUri: 'http://127.0.0.1:1/pool/.well-known/jwks.json',
    audience: 'client',
    allowedOrigins: [],
    runtimeConfig: () => ({}) as never,
    webRoot,
    invoke: () => Promise.reject(new Error('no functions in this test')),
    log: () => undefined,
  });
});

afterAll(async () => {
  await gateway?.stop();
  await rm(webRoot, { recursive: true, force: true });
});

/** Raw bytes as they came over the wire (fetch would decode them). */
async function get(path: string, headers: Record<string, string> = {}) {
  const { request } = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((done, fail) => {
    request(`${gateway.url}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', fail);
    })
      .on('error', fail)
      .end();
  });
}

describe('web app on the local gateway', () => {
  it('sends brotli to a browser that takes it, gzip to one that only takes gzip, and plain bytes otherwise', async () => {
    const brotli = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(brotli.body).toString()).toBe(script);
    expect(brotli.body.length).toBeLessThan(script.length / 10);

    const gzipped = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(script);

    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('caches hashed assets for good and has the shell revalidated, answering 304 while it is unchanged', async () => {
    const asset = await get('/assets/index-abc123.js', { 'accept-encoding': 'br' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const page = await get('/studio/clothing', { 'accept-encoding': 'gzip, br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.body).toString()).toBe(shell);
    const etag = page.headers.etag as string;
    expect(etag).toBeTruthy();

    const again = await get('/', { 'accept-encoding': 'gzip, br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    await writeFile(join(webRoot, 'index.html'), shell.replace('abc123', 'def456'));
    const released = await get('/', { 'accept-encoding': 'gzip, br', 'if-none-match': etag });
    expect(released.status).toBe(200);
    expect(brotliDecompressSync(released.body).toString()).toContain('index-def456.js');
  });

  it('serves the prerendered landing page at / and the empty app shell for every other client route', async () => {
    const appShell = `<!doctype html><title>ModelLoop</title><div id="root"></div>${' '.repeat(2000)}`;
    await writeFile(join(webRoot, 'app.html'), appShell);
    try {
      expect((await get('/')).body.toString()).toBe(await readFile(join(webRoot, 'index.html'), 'utf8'));
      for (const route of ['/dashboard', '/studio/generate/video-generation', '/no/such/page']) {
        expect((await get(route)).body.toString(), route).toBe(appShell);
      }
    } finally {
      await rm(join(webRoot, 'app.html'));
    }
  });

  it('leaves small files uncompressed', async () => {
    const icon = await get('/favicon.svg', { 'accept-encoding': 'br' });
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('reads Accept-Encoding as browsers send it, q=0 meaning refused', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding(undefined)).toBeUndefined();
    expect(preferredEncoding('*')).toBe('gzip');
  });
});
