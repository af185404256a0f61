// Marketplace presets (what a packshot is made to) and the marketplaces' measurable image rules (what the compliance
// report checks on every picture), in one place, each rule with its source. Shared by the Lambdas and the web app.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';

export const MARKETPLACES = ['amazon', 'shopify', 'zalando', 'etsy', 'google-shopping'] as const;
export type Marketplace = (typeof MARKETPLACES)[number];

export const MARKETPLACE_NAMES: Record<Marketplace, string> = {
  amazon: 'Amazon main image',
  shopify: 'Shopify',
  zalando: 'Zalando',
  etsy: 'Etsy',
  'google-shopping': 'Google Shopping',
};

/** ai_model of a packshot, before and after the engine names how it cut the product out ('packshot-engine:u2-net-p'). */
export const PACKSHOT_ENGINE = 'packshot-engine';

export const PACKSHOT_FORMATS = ['jpeg', 'png'] as const;
export type PackshotFormat = (typeof PACKSHOT_FORMATS)[number];

/** A packshot's frame: exact size, the share of the frame the product's bounding box fills, ground colour, format. */
export interface PackshotFrame {
  width: number;
  height: number;
  /** The product's bounding box fills this share of the frame along its limiting side (0–1). */
  fill: number;
  /** Ground colour, #rrggbb. */
  background: string;
  format: PackshotFormat;
}

/** Each marketplace's preset: a frame that passes its rules with margin. */
export const PACKSHOT_PRESETS: Record<Marketplace, PackshotFrame> = {
  amazon: { width: 2000, height: 2000, fill: 0.9, background: '#ffffff', format: 'jpeg' },
  shopify: { width: 2048, height: 2048, fill: 0.85, background: '#ffffff', format: 'jpeg' },
  zalando: { width: 1801, height: 2600, fill: 0.88, background: '#ffffff', format: 'jpeg' },
  etsy: { width: 3000, height: 2250, fill: 0.8, background: '#ffffff', format: 'jpeg' },
  'google-shopping': { width: 1500, height: 1500, fill: 0.85, background: '#ffffff', format: 'jpeg' },
};

/** What one rule measures; the compliance report (lambdas/domain/marketplace/compliance.ts) measures each. */
export type RuleCheck =
  /** Share of the picture's border pixels that are exactly 255,255,255, at least `min`. */
  | { kind: 'white-border'; min: number }
  /** The product's bounding box (non-white pixels) over the frame, along the limiting side, at least `min`. */
  | { kind: 'fill'; min: number }
  | { kind: 'longest-side'; min: number; max?: number }
  | { kind: 'shortest-side'; min: number }
  | { kind: 'both-sides'; min: number }
  | { kind: 'megapixels'; max: number }
  /** width / height within `tolerance` (relative) of `ratio`. */
  | { kind: 'ratio'; ratio: number; tolerance: number }
  | { kind: 'format'; allowed: readonly string[] }
  | { kind: 'file-size'; maxBytes: number }
  /** No watermark or overlay mark (the preview engine's corner mark is detected in the pixels). */
  | { kind: 'no-watermark' }
  /** IPTC DigitalSourceType in the file's XMP. */
  | { kind: 'provenance' }
  /** The picture's pieces apart from the ground (4-connected, non-ground pixels) other than the largest: their area over the largest's, at most `max`. */
  | { kind: 'one-product'; max: number }
  /** A cutout's: the product covers at least `min` of the photo it was cut from. */
  | { kind: 'product-found'; min: number }
  /** A cutout's: the share of the product's outline where the segmentation network was unsure, at most `max`. */
  | { kind: 'cutout-confidence'; max: number }
  /** A cutout's: the product's longer side in the frame over its longer side in the photo as uploaded, at most `max`. */
  | { kind: 'enlargement'; max: number };

export interface MarketplaceRule {
  id: string;
  label: string;
  check: RuleCheck;
  /** Where the rule is published. */
  source: string;
}

const AMAZON = 'Amazon Seller Central, Product image requirements (sellercentral.amazon.com/help/hub/reference/external/G1881)';
const GOOGLE = 'Google Merchant Center Help, Image link [image_link] (support.google.com/merchants/answer/6324350)';
const SHOPIFY = 'Shopify Help Center, Product media: image sizes (help.shopify.com/manual/products/product-media)';
const ZALANDO = 'Zalando Partner guidelines, image requirements (2025)';
const ETSY = 'Etsy Help, Listing photo requirements (help.etsy.com)';
/** Quoted as read on 2026-11-27: "Images must accurately represent the product and show only the product that's for sale." */
const AMAZON_ONLY_PRODUCT = `${AMAZON}: "show only the product that's for sale"`;
/**
 * The cutout's own measures (issue #48). Thresholds chosen on the tuning set (test/fixtures/photographic) and checked
 * on the held-out set (test/fixtures/held-out), bench/cutout.ts and docs/testing.md.
 */
const CUTOUT_MEASURE = 'ModelLoop cutout measure (docs/testing.md, "The cutout\'s doubt"), bench/cutout.ts';

export const MARKETPLACE_RULES: Record<Marketplace, readonly MarketplaceRule[]> = {
  amazon: [
    { id: 'white-background', label: 'Pure white background (RGB 255,255,255)', check: { kind: 'white-border', min: 0.98 }, source: AMAZON },
    { id: 'fill', label: 'Product fills at least 85% of the frame', check: { kind: 'fill', min: 0.85 }, source: AMAZON },
    { id: 'size', label: 'At least 1,000 px on the longest side (zoom), at most 10,000 px', check: { kind: 'longest-side', min: 1000, max: 10_000 }, source: AMAZON },
    { id: 'format', label: 'JPEG, PNG, TIFF or GIF', check: { kind: 'format', allowed: ['jpeg', 'png', 'tiff', 'gif'] }, source: AMAZON },
    { id: 'file-size', label: 'At most 10 MB', check: { kind: 'file-size', maxBytes: 10 * 1024 * 1024 }, source: AMAZON },
    { id: 'no-watermark', label: 'No text, logos or watermarks', check: { kind: 'no-watermark' }, source: AMAZON },
    { id: 'one-product', label: 'One product, nothing else: no other pieces on the ground', check: { kind: 'one-product', max: 0.005 }, source: AMAZON_ONLY_PRODUCT },
  ],
  shopify: [
    { id: 'size', label: 'At most 4,472 px on the longest side (2048 × 2048 recommended)', check: { kind: 'longest-side', min: 800, max: 4472 }, source: SHOPIFY },
    { id: 'ratio', label: 'Square (1:1), as the theme grids show it', check: { kind: 'ratio', ratio: 1, tolerance: 0.01 }, source: SHOPIFY },
    { id: 'format', label: 'JPEG, PNG or WebP', check: { kind: 'format', allowed: ['jpeg', 'png', 'webp'] }, source: SHOPIFY },
    { id: 'file-size', label: 'At most 20 MB', check: { kind: 'file-size', maxBytes: 20 * 1024 * 1024 }, source: SHOPIFY },
    { id: 'no-watermark', label: 'No watermark', check: { kind: 'no-watermark' }, source: SHOPIFY },
  ],
  zalando: [
    { id: 'white-background', label: 'White background', check: { kind: 'white-border', min: 0.95 }, source: ZALANDO },
    { id: 'ratio', label: 'Upright 1:1.44', check: { kind: 'ratio', ratio: 1 / 1.44, tolerance: 0.01 }, source: ZALANDO },
    { id: 'size', label: 'At least 762 × 1100 (best 1801 × 2600)', check: { kind: 'shortest-side', min: 762 }, source: ZALANDO },
    { id: 'format', label: 'JPG', check: { kind: 'format', allowed: ['jpeg'] }, source: ZALANDO },
    { id: 'no-watermark', label: 'No watermark', check: { kind: 'no-watermark' }, source: ZALANDO },
  ],
  etsy: [
    { id: 'size', label: 'At least 2,000 px on the shortest side', check: { kind: 'shortest-side', min: 2000 }, source: ETSY },
    { id: 'format', label: 'JPG, PNG or GIF', check: { kind: 'format', allowed: ['jpeg', 'png', 'gif'] }, source: ETSY },
    { id: 'file-size', label: 'At most 20 MB', check: { kind: 'file-size', maxBytes: 20 * 1024 * 1024 }, source: ETSY },
    { id: 'no-watermark', label: 'No watermark', check: { kind: 'no-watermark' }, source: ETSY },
  ],
  'google-shopping': [
    { id: 'size', label: 'At least 500 × 500 px (from 31 January 2027)', check: { kind: 'both-sides', min: 500 }, source: GOOGLE },
    { id: 'megapixels', label: 'At most 64 megapixels', check: { kind: 'megapixels', max: 64 }, source: GOOGLE },
    { id: 'format', label: 'JPEG, WebP, PNG, GIF, BMP or TIFF', check: { kind: 'format', allowed: ['jpeg', 'webp', 'png', 'gif', 'bmp', 'tiff'] }, source: GOOGLE },
    { id: 'file-size', label: 'At most 16 MB', check: { kind: 'file-size', maxBytes: 16 * 1024 * 1024 }, source: GOOGLE },
    { id: 'no-watermark', label: 'No watermarks or promotional overlays', check: { kind: 'no-watermark' }, source: GOOGLE },
    { id: 'provenance', label: 'AI-made images carry IPTC DigitalSourceType', check: { kind: 'provenance' }, source: GOOGLE },
  ],
};

/**
 * The rules of a picture made by cutting a product out of a photo (a packshot), checked for every marketplace: each
 * says whether the cutout can be trusted. A picture that fails one is marked for review (ComplianceReport.review).
 */
export const CUTOUT_RULES: readonly MarketplaceRule[] = [
  { id: 'product-found', label: 'A product was found: it covers at least 1% of the photo', check: { kind: 'product-found', min: 0.01 }, source: CUTOUT_MEASURE },
  { id: 'cutout-confidence', label: 'The cutout is sure of its outline: unsure along at most 50% of it', check: { kind: 'cutout-confidence', max: 0.5 }, source: CUTOUT_MEASURE },
  {
    id: 'enlargement',
    label: 'Sharp: the product is enlarged at most ×3 from the photo',
    check: { kind: 'enlargement', max: 3 },
    source: `${AMAZON}: images must be in focus, not pixelated; ${CUTOUT_MEASURE}`,
  },
];

/** What a cutout measured of itself (lambdas/domain/marketplace/packshot.ts), kept with its report. */
export const CutoutMeasures = /* @__PURE__ */ (() => z.object({
  /** The product's longer side in the photo as uploaded, and in the frame (pixels). */
  sourceSide: z.number(),
  frameSide: z.number(),
  /** The product's share of the photo's area. */
  areaShare: z.number(),
  /** The share of the outline where the segmentation network was unsure; absent for a colour cut or a seller's own mask. */
  unsureOutline: z.number().optional(),
}))();
export type CutoutMeasures = z.infer<typeof CutoutMeasures>;

/** One rule's outcome: the measured value (a number, or a word for format and marks) and pass/fail. */
export const RuleResult = /* @__PURE__ */ (() => z.object({
  id: z.string(),
  label: z.string(),
  measured: z.union([z.number(), z.string(), z.boolean()]),
  pass: z.boolean(),
  source: z.string(),
}))();
export type RuleResult = z.infer<typeof RuleResult>;

export const MarketplaceCompliance = /* @__PURE__ */ (() => z.object({
  marketplace: z.enum(MARKETPLACES),
  name: z.string(),
  pass: z.boolean(),
  rules: z.array(RuleResult),
}))();
export type MarketplaceCompliance = z.infer<typeof MarketplaceCompliance>;

/** The report of one picture against every marketplace. */
export const ComplianceReport = /* @__PURE__ */ (() => z.object({
  width: z.number().int(),
  height: z.number().int(),
  format: z.string(),
  bytes: z.number().int(),
  /** IPTC DigitalSourceType found in the file's XMP, if any. */
  digitalSourceType: z.string().nullable(),
  marketplaces: z.array(MarketplaceCompliance),
  /** The cutout's own measures, when the picture is a cutout. */
  cutout: CutoutMeasures.optional(),
  /**
   * Doubtful: a cutout rule or "one product, nothing else" failed. The picture is never a clean pass; the seller should
   * look at it (and can refine the cutout). Reports stored before this rule have none.
   */
  review: z.boolean().optional(),
}))();
export type ComplianceReport = z.infer<typeof ComplianceReport>;
