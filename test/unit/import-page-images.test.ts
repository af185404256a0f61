// Reading a shop page's product images with an HTML parser: JSON-LD Product.image in its shapes, og:image,
// twitter:image and image_src in order, relative and <base> URLs, main-content images, Shopify product pages.
import { describe, expect, it } from 'vitest';
import { imagesOfPage, jsonLdProductImages, shopifyProductImages } from '../../lambdas/domain/imports/page-images.js';
import { imageTooLargeMessage } from '../../lambdas/contracts/imports.js';

const PAGE = 'https://shop.example/product/scarf/';
const html = (head: string, body = '') => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const ld = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe('imagesOfPage', () => {
  it('orders JSON-LD, og:image, twitter:image and image_src, resolves relative URLs and drops duplicates', () => {
    const page = html(
      `<meta name="twitter:image" content="/t.jpg"><link rel="image_src" href="https://cdn.example/s.jpg">
       <META PROPERTY="og:image" CONTENT="//cdn.example/og.jpg"><meta property="og:image:secure_url" content="/p.jpg">
       ${ld({ '@type': 'Product', image: ['/p.jpg', { '@type': 'ImageObject', url: 'p2.jpg' }] })}`,
    );
    expect(imagesOfPage(page, PAGE).named).toEqual([
      { url: 'https://shop.example/p.jpg', source: 'json-ld' },
      { url: 'https://shop.example/product/scarf/p2.jpg', source: 'json-ld' },
      { url: 'https://cdn.example/og.jpg', source: 'og:image' },
      { url: 'https://shop.example/t.jpg', source: 'twitter:image' },
      { url: 'https://cdn.example/s.jpg', source: 'image_src' },
    ]);
  });

  it('reads Product in @graph and in arrays, ignores other types, broken JSON and non-http references', () => {
    expect(jsonLdProductImages(JSON.stringify({ '@graph': [{ '@type': 'WebPage', image: 'x.jpg' }, { '@type': ['Product'], image: { contentUrl: 'a.jpg' } }] }))).toEqual(['a.jpg']);
    expect(jsonLdProductImages(JSON.stringify([{ '@type': 'Organization', logo: 'l.png', image: 'o.jpg' }, { '@type': 'Product', image: 'b.jpg' }]))).toEqual(['b.jpg']);
    expect(jsonLdProductImages('{not json')).toEqual([]);
    const page = html(`<meta property="og:image" content="javascript:alert(1)"><meta property="og:image" content="data:image/png;base64,AAAA">`);
    expect(imagesOfPage(page, PAGE).named).toEqual([]);
  });

  it('does not read script text or comments as markup', () => {
    const page = html(`<script>var s = '<meta property="og:image" content="/fake.jpg">';</script><!-- <meta property="og:image" content="/c.jpg"> -->`);
    expect(imagesOfPage(page, PAGE).named).toEqual([]);
  });

  it('honours <base href>', () => {
    expect(imagesOfPage(html(`<base href="https://static.example/assets/"><meta property="og:image" content="a.jpg">`), PAGE).named[0]!.url).toBe('https://static.example/assets/a.jpg');
  });

  it('takes main-content images, largest declared first, without icons, svgs or the page chrome', () => {
    const page = html(
      '',
      `<header><img src="/banner.jpg" width="2000" height="400"></header>
       <main><img src="/icon.png" width="32" height="32"><img src="/logo.svg"><img src="/small.jpg" width="300" height="300">
       <img srcset="/big-600.jpg 600w, /big-1200.jpg 1200w" src="/big.jpg" width="1200" height="1500"><img data-src="/lazy.jpg"></main>`,
    );
    expect(imagesOfPage(page, PAGE).content.map((image) => image.url)).toEqual([
      'https://shop.example/big-1200.jpg',
      'https://shop.example/small.jpg',
      'https://shop.example/lazy.jpg',
    ]);
  });

  it('recognises a Shopify product page and names its product JSON', () => {
    const shopify = html('<script src="https://cdn.shopify.com/s/x.js"></script>');
    expect(imagesOfPage(shopify, 'https://store.example/collections/tops/products/linen-shirt?variant=1').shopifyProductJson).toBe(
      'https://store.example/products/linen-shirt.json',
    );
    expect(imagesOfPage(shopify, 'https://store.example/about').shopifyProductJson).toBeUndefined();
    expect(imagesOfPage(html(''), 'https://store.example/products/linen-shirt').shopifyProductJson).toBeUndefined();
  });
});

describe('shopifyProductImages', () => {
  it('reads product.images in order, protocol-relative sources included, and falls back to product.image', () => {
    const json = JSON.stringify({ product: { images: [{ src: '//cdn.shopify.com/a.jpg?v=1' }, { src: 'https://cdn.shopify.com/b.jpg' }, { alt: 'no src' }] } });
    expect(shopifyProductImages(json, 'https://store.example/products/x')).toEqual(['https://cdn.shopify.com/a.jpg?v=1', 'https://cdn.shopify.com/b.jpg']);
    expect(shopifyProductImages(JSON.stringify({ product: { image: { src: '/c.jpg' } } }), 'https://store.example/products/x')).toEqual(['https://store.example/c.jpg']);
    expect(shopifyProductImages('<html>', 'https://store.example/products/x')).toEqual([]);
  });
});

describe('imageTooLargeMessage', () => {
  it('says the size and the limit', () => {
    expect(imageTooLargeMessage(20 * 1024 * 1024, 12 * 1024 * 1024)).toBe('The image is too large (20 MB, the limit is 12 MB)');
    expect(imageTooLargeMessage(undefined, 6 * 1024 * 1024)).toBe('The image is too large (over 6 MB, the limit is 6 MB)');
  });
});
