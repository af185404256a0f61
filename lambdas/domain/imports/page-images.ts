// Where a shop page names its product photos, read with an HTML parser: Shopify's product JSON, JSON-LD Product.image,
// og:image / twitter:image / <link rel="image_src">, and the images of the page's main content. Pure functions of the
// page's text; fetching is the service's.
import { DomUtils, parseDocument } from 'htmlparser2';
import type { CANDIDATE_SOURCES } from '../../contracts/imports.js';

type Element = ReturnType<typeof DomUtils.findAll>[number];
export type CandidateSource = (typeof CANDIDATE_SOURCES)[number];

export interface PageImage {
  url: string;
  source: CandidateSource;
  /** width × height as the <img> declares it (img candidates only). */
  declaredArea?: number;
}

export interface PageImages {
  /** Structured sources in order (JSON-LD, og:image, twitter:image, image_src), without duplicates. */
  named: PageImage[];
  /** Images of the main content, the largest declared first; the service keeps the largest real one. */
  content: PageImage[];
  /** Set when the page is a Shopify product page: its /products/<handle>.json. */
  shopifyProductJson?: string;
}

/** Content images declared smaller than this on a side are icons, swatches or tracking pixels. */
const MIN_DECLARED_SIDE = 100;
const MAX_CONTENT_IMAGES = 4;
const SHOPIFY_PRODUCT_PATH = /^(?:\/[a-z]{2}(?:-[a-z]{2})?)?(?:\/collections\/[^/]+)?\/products\/([^/.?#]+)\/?$/i;

const attribute = (element: Element, name: string) => DomUtils.getAttributeValue(element, name)?.trim() || undefined;

/** An absolute http(s) URL of a reference on the page, or undefined for anything else (data:, javascript:, …). */
function absolute(reference: string | undefined, base: URL): string | undefined {
  if (!reference) return undefined;
  try {
    const url = new URL(reference.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

export function imagesOfPage(html: string, pageUrl: string): PageImages {
  const document = parseDocument(html, { lowerCaseTags: true, lowerCaseAttributeNames: true });
  const elements = DomUtils.findAll(() => true, document.children);
  const byTag = (tag: string) => elements.filter((element) => element.name === tag);
  const baseHref = byTag('base').map((element) => attribute(element, 'href')).find(Boolean);
  const base = new URL(absolute(baseHref, new URL(pageUrl)) ?? pageUrl);

  const named: PageImage[] = [];
  const add = (reference: string | undefined, source: CandidateSource) => {
    const url = absolute(reference, base);
    if (url && !named.some((image) => image.url === url)) named.push({ url, source });
  };

  for (const script of byTag('script')) {
    if (attribute(script, 'type')?.toLowerCase() !== 'application/ld+json') continue;
    for (const reference of jsonLdProductImages(DomUtils.textContent(script))) add(reference, 'json-ld');
  }
  const metas = byTag('meta');
  const metaContent = (names: string[]) =>
    metas.filter((meta) => names.includes((attribute(meta, 'property') ?? attribute(meta, 'name') ?? '').toLowerCase())).map((meta) => attribute(meta, 'content'));
  for (const reference of metaContent(['og:image', 'og:image:url', 'og:image:secure_url'])) add(reference, 'og:image');
  for (const reference of metaContent(['twitter:image', 'twitter:image:src'])) add(reference, 'twitter:image');
  for (const link of byTag('link')) {
    if ((attribute(link, 'rel') ?? '').toLowerCase().split(/\s+/).includes('image_src')) add(attribute(link, 'href'), 'image_src');
  }

  const content = contentImages(elements, base).filter((image) => !named.some((known) => known.url === image.url));
  const shopifyHandle = SHOPIFY_PRODUCT_PATH.exec(new URL(pageUrl).pathname)?.[1];
  const isShopify = /cdn\.shopify\.com|shopify-digital-wallet|Shopify\.shop|shopify-checkout-api-token/i.test(html);
  return {
    named,
    content,
    ...(shopifyHandle && isShopify ? { shopifyProductJson: new URL(`/products/${shopifyHandle}.json`, pageUrl).href } : {}),
  };
}

/** The images of the main content: <main>, else [role=main], else <article>, else the whole page. */
function contentImages(elements: Element[], base: URL): PageImage[] {
  const container =
    elements.find((element) => element.name === 'main') ??
    elements.find((element) => attribute(element, 'role') === 'main') ??
    elements.find((element) => element.name === 'article');
  const images = container ? DomUtils.findAll((element) => element.name === 'img', container.children) : elements.filter((element) => element.name === 'img');
  const found: PageImage[] = [];
  for (const img of images) {
    const width = Number(attribute(img, 'width'));
    const height = Number(attribute(img, 'height'));
    if ((width > 0 && width < MIN_DECLARED_SIDE) || (height > 0 && height < MIN_DECLARED_SIDE)) continue;
    const url = absolute(largestSrcsetEntry(attribute(img, 'srcset')) ?? attribute(img, 'src') ?? attribute(img, 'data-src'), base);
    if (!url || /\.svg(?:$|\?)/i.test(new URL(url).pathname) || found.some((image) => image.url === url)) continue;
    found.push({ url, source: 'img', declaredArea: width > 0 && height > 0 ? width * height : 0 });
  }
  return found.sort((a, b) => (b.declaredArea ?? 0) - (a.declaredArea ?? 0)).slice(0, MAX_CONTENT_IMAGES);
}

/** The widest entry of a srcset ("a.jpg 400w, b.jpg 1200w"). */
function largestSrcsetEntry(srcset: string | undefined): string | undefined {
  if (!srcset) return undefined;
  let best: { url: string; width: number } | undefined;
  for (const entry of srcset.split(',')) {
    const [url, descriptor] = entry.trim().split(/\s+/);
    if (!url) continue;
    const width = descriptor?.endsWith('w') ? Number.parseInt(descriptor, 10) : descriptor?.endsWith('x') ? Number.parseFloat(descriptor) * 1000 : 0;
    if (!best || width > best.width) best = { url, width: Number.isFinite(width) ? width : 0 };
  }
  return best?.url;
}

/** Product.image of every JSON-LD block (top level, arrays and @graph): a URL, an ImageObject or a list of them. */
export function jsonLdProductImages(text: string): string[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  const found: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > 6 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child) => visit(child, depth + 1));
    const record = node as Record<string, unknown>;
    const types = ([] as unknown[]).concat(record['@type'] ?? []);
    if (types.some((type) => type === 'Product' || type === 'ProductGroup')) found.push(...imageReferences(record.image));
    if (record['@graph']) visit(record['@graph'], depth + 1);
    if (types.includes('ProductGroup') && record.hasVariant) visit(record.hasVariant, depth + 1);
  };
  visit(data, 0);
  return found;
}

function imageReferences(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(imageReferences);
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const url = record.url ?? record.contentUrl;
    return typeof url === 'string' ? [url] : [];
  }
  return [];
}

/** The image URLs of a Shopify /products/<handle>.json answer, in the shop's order. */
export function shopifyProductImages(text: string, pageUrl: string): string[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [];
  }
  const product = (data as { product?: { images?: unknown; image?: unknown } } | null)?.product;
  const images = Array.isArray(product?.images) ? (product.images as unknown[]) : product?.image ? [product.image] : [];
  const base = new URL(pageUrl);
  return images
    .map((image) => (image as { src?: unknown } | null)?.src)
    .map((src) => (typeof src === 'string' ? absolute(src, base) : undefined))
    .filter((url): url is string => url !== undefined);
}
