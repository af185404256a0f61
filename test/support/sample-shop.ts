// A local web shop for the product-link import: pages shaped like the ones sellers paste (a Shopify product with its
// .json, a WooCommerce page with JSON-LD, an og:image-only page, a page with no product image, a plain page whose
// main content has images of several sizes, a 3 MB page), direct images (one of 20 MB, with and without a declared length),
// HTML served as an image, compressed answers (a gzip page, a brotli page, a gzip bomb), a slow server, redirect chains and
// a redirect to the cloud metadata address.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';

export interface SampleShop {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** How many times each path (with its query) was requested. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

const MB = 1024 * 1024;
export const HUGE_IMAGE_BYTES = 20 * MB;
/** Seconds the slow page waits before answering: longer than the import's whole time limit. */
const SLOW_SECONDS = 15;

const jpeg = (width: number, height: number, rgb: { r: number; g: number; b: number }) =>
  sharp({ create: { width, height, channels: 3, background: rgb } }).jpeg({ quality: 85 }).toBuffer();

/** Random pixels do not compress: a real, fully decodable PNG of about 7.3 MB (over the video limit of 6 MB). */
async function noisePng(): Promise<Buffer> {
  const width = 1600;
  const height = 1600;
  const raw = Buffer.alloc(width * height * 3);
  let seed = 12345;
  for (let index = 0; index < raw.length; index++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    raw[index] = seed >> 16;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
}

const page = (title: string, head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

export async function startSampleShop(): Promise<SampleShop> {
  const images: Record<string, { type: string; bytes: Buffer }> = {
    '/cdn/shirt-front.jpg': { type: 'image/jpeg', bytes: await tshirtPhoto(800, 1000) },
    '/cdn/shirt-back.jpg': { type: 'image/jpeg', bytes: await jpeg(800, 1000, { r: 30, g: 60, b: 160 }) },
    '/cdn/shirt-social.jpg': { type: 'image/jpeg', bytes: await jpeg(600, 315, { r: 200, g: 200, b: 200 }) },
    '/wp-content/uploads/silk-scarf.jpg': { type: 'image/jpeg', bytes: await jpeg(900, 900, { r: 180, g: 40, b: 120 }) },
    '/wp-content/uploads/silk-scarf-social.jpg': { type: 'image/jpeg', bytes: await jpeg(600, 315, { r: 90, g: 90, b: 90 }) },
    '/images/og-dress.png': {
      type: 'image/png',
      bytes: await sharp({ create: { width: 640, height: 800, channels: 3, background: { r: 20, g: 140, b: 90 } } }).png().toBuffer(),
    },
    '/images/hero-bag.jpg': { type: 'image/jpeg', bytes: await jpeg(1000, 1000, { r: 120, g: 80, b: 40 }) },
    '/images/thumb-bag.jpg': { type: 'image/jpeg', bytes: await jpeg(120, 120, { r: 120, g: 80, b: 40 }) },
    '/images/noise.png': { type: 'image/png', bytes: await noisePng() },
  };
  const huge = Buffer.alloc(HUGE_IMAGE_BYTES, 0x41);
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]).copy(huge);
  const hits = new Map<string, number>();

  const routes: Record<string, (request: IncomingMessage, response: ServerResponse, origin: string) => void> = {
    '/products/linen-shirt': (_request, response) =>
      html(
        response,
        page(
          'Linen shirt – Sample Shop',
          `<meta property="og:image" content="/cdn/shirt-social.jpg"><script src="https://cdn.shopify.com/s/shopify/option_selection.js"></script>`,
          `<main><h1>Linen shirt</h1><img src="/cdn/shirt-front.jpg" width="800" height="1000" alt="Linen shirt"></main>`,
        ),
      ),
    '/products/linen-shirt.json': (_request, response, origin) =>
      json(response, {
        product: {
          id: 1,
          title: 'Linen shirt',
          handle: 'linen-shirt',
          image: { src: `${origin}/cdn/shirt-front.jpg`, width: 800, height: 1000 },
          images: [
            { id: 11, position: 1, src: `${origin}/cdn/shirt-front.jpg?v=1`, width: 800, height: 1000 },
            { id: 12, position: 2, src: `${origin}/cdn/shirt-back.jpg?v=1`, width: 800, height: 1000 },
          ],
        },
      }),
    '/product/silk-scarf/': (_request, response) =>
      html(
        response,
        page(
          'Silk scarf – Sample Woo Shop',
          `<meta property="og:image" content="/wp-content/uploads/silk-scarf-social.jpg">
           <script type="application/ld+json">${JSON.stringify({
             '@context': 'https://schema.org/',
             '@graph': [
               { '@type': 'WebPage', name: 'Silk scarf' },
               { '@type': 'Product', name: 'Silk scarf', image: { '@type': 'ImageObject', url: '/wp-content/uploads/silk-scarf.jpg' } },
             ],
           })}</script>`,
          `<div class="woocommerce"><h1>Silk scarf</h1></div>`,
        ),
      ),
    '/og-only': (_request, response) =>
      html(response, page('Green dress', `<meta property="og:image" content="/images/og-dress.png"><meta name="twitter:card" content="summary">`, '<p>A green dress.</p>')),
    '/no-image': (_request, response) => html(response, page('About us', '', '<main><h1>About us</h1><p>We sell shirts.</p></main>')),
    '/plain-bag': (_request, response) =>
      html(
        response,
        page(
          'Leather bag',
          '',
          `<header><img src="/images/hero-bag.jpg?banner" width="1600" height="300" alt="banner"></header>
           <main><img src="/images/thumb-bag.jpg" width="120" height="120" alt=""><img src="/images/hero-bag.jpg" width="1000" height="1000" alt="Leather bag"></main>`,
        ),
      ),
    '/huge-page': (_request, response) =>
      html(response, page('Huge', '<meta property="og:image" content="/images/og-dress.png">', `<!-- ${'x'.repeat(3 * MB)} -->`)),
    '/noise-page': (_request, response) => html(response, page('Noise', '<meta property="og:image" content="/images/noise.png">', '')),
    '/images/huge.jpg': (_request, response) => {
      response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': huge.length });
      response.end(huge);
    },
    '/images/huge-unannounced.jpg': (_request, response) => {
      // Chunked, with no length to refuse early: the limit has to stop the stream.
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.end(huge);
    },
    '/images/page-as-image.jpg': (_request, response) => {
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.end(page('Not an image', '', '<p>Sorry, this is a web page.</p>'));
    },
    '/images/changes.jpg': (request, response) => {
      // A real photo the first time, a web page afterwards: the selected download is checked itself.
      if ((hits.get(request.url ?? '') ?? 0) <= 1) return image(response, images['/cdn/shirt-back.jpg']!);
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.end('<html><body>changed</body></html>');
    },
    '/changing-page': (request, response) =>
      html(response, page('Changing', `<meta property="og:image" content="/images/changes.jpg?${new URL(request.url!, 'http://x').search.slice(1)}">`, '')),
    '/slow': (_request, response) => {
      const timer = setTimeout(() => html(response, page('Slow', '', '')), SLOW_SECONDS * 1000);
      response.on('close', () => clearTimeout(timer));
    },
    '/gzipped-page': (_request, response) => {
      const body = gzipSync(page('Gzipped shirt', '<meta property="og:image" content="/cdn/shirt-front.jpg">', '<h1>Gzipped shirt</h1>'));
      response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': body.length }).end(body);
    },
    '/brotli-page': (_request, response) => {
      const body = brotliCompressSync(page('Brotli shirt', '', '<h1>Brotli shirt</h1>'));
      response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'br', 'content-length': body.length }).end(body);
    },
    '/gzip-bomb': (_request, response) => {
      // About 20 KB on the wire, 20 MB once unpacked: the limit counts the unpacked bytes.
      const body = gzipSync(Buffer.alloc(HUGE_IMAGE_BYTES));
      response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': body.length }).end(body);
    },
    '/to-metadata': (_request, response) => redirect(response, 'http://169.254.169.254/latest/meta-data/'),
    '/to-loopback': (_request, response) => redirect(response, 'http://127.0.0.1/admin'),
  };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://sample.shop');
    hits.set(request.url ?? '', (hits.get(request.url ?? '') ?? 0) + 1);
    const origin = `http://${request.headers.host}`;
    const chain = /^\/redirect\/(\d+)$/.exec(url.pathname);
    if (chain) {
      const left = Number(chain[1]);
      return redirect(response, left > 1 ? `/redirect/${left - 1}` : '/products/linen-shirt');
    }
    const route = routes[url.pathname];
    if (route) return route(request, response, origin);
    const found = images[url.pathname];
    if (found) return image(response, found);
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function html(response: ServerResponse, body: string): void {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
}

function json(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function image(response: ServerResponse, { type, bytes }: { type: string; bytes: Buffer }): void {
  response.writeHead(200, { 'content-type': type, 'content-length': bytes.length }).end(bytes);
}

function redirect(response: ServerResponse, location: string): void {
  response.writeHead(302, { location }).end();
}
