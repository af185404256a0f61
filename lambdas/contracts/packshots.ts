// POST /generate-packshot: a product photo made into a marketplace packshot (lambdas/domain/marketplace/packshot.ts),
// through the spending flow and the generation workflow like every image operation.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { Generation, GenerationStarted } from './generations.js';
import { MARKETPLACES, PACKSHOT_FORMATS, PACKSHOT_PRESETS, type PackshotFrame } from './marketplace.js';
import { defineRoute, ROUTE_ERRORS, SAMPLE_IDS } from './route.js';

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;
/** A custom frame's bounds: large enough for any marketplace's zoom, small enough for one Lambda's memory. */
export const PACKSHOT_SIDE_MIN = 256;
export const PACKSHOT_SIDE_MAX = 6000;

/**
 * POST /generate-packshot. The product photo is one of: `clothingItemId` (an item of the caller's library) or
 * `imageUrl` (an image reference, as edit and upscale take it: one of the caller's results, an upload's key, or a
 * library item's key). `marketplace` picks a preset (PACKSHOT_PRESETS); `custom` takes `width`, `height` and
 * optionally `fill` and `format`. `background` (#rrggbb) changes the ground of any preset; `shadow` adds a soft
 * contact shadow.
 */
export const PackshotRequest = /* @__PURE__ */ (() => z
  .object({
    clothingItemId: z.string().trim().min(1).max(64).optional(),
    imageUrl: z.string().trim().min(1).max(512, 'This is not an image of your account.').optional(),
    productType: z.enum(['clothing', 'jewelry']).default('clothing'),
    marketplace: z.enum([...MARKETPLACES, 'custom']).default('amazon'),
    width: z.number().int().min(PACKSHOT_SIDE_MIN).max(PACKSHOT_SIDE_MAX).optional(),
    height: z.number().int().min(PACKSHOT_SIDE_MIN).max(PACKSHOT_SIDE_MAX).optional(),
    fill: z.number().min(0.3).max(0.98).optional(),
    format: z.enum(PACKSHOT_FORMATS).optional(),
    background: z.string().regex(HEX_COLOUR, 'The background is a colour like #ffffff').optional(),
    shadow: z.boolean().default(false),
  })
  .superRefine((body, context) => {
    const sources = [body.clothingItemId, body.imageUrl].filter((source) => source !== undefined);
    if (sources.length !== 1) {
      context.addIssue({ code: 'custom', message: sources.length ? 'Send one product image: a clothing item or an image, not both' : 'Please choose a product image' });
    }
    if (body.marketplace === 'custom' && (body.width === undefined || body.height === undefined)) {
      context.addIssue({ code: 'custom', message: 'A custom packshot needs a width and a height', path: ['width'] });
    }
  }))();
export type PackshotRequest = z.input<typeof PackshotRequest>;

/** The frame a request asks for: its marketplace's preset, or the custom size, each with the chosen ground. */
export function packshotFrameOf(body: z.output<typeof PackshotRequest>): PackshotFrame {
  const base: PackshotFrame =
    body.marketplace === 'custom'
      ? { width: body.width!, height: body.height!, fill: body.fill ?? 0.85, background: '#ffffff', format: body.format ?? 'png' }
      : PACKSHOT_PRESETS[body.marketplace];
  return { ...base, ...(body.background ? { background: body.background.toLowerCase() } : {}), ...(body.marketplace !== 'custom' && body.fill ? { fill: body.fill } : {}) };
}

export const generatePackshotRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/generate-packshot',
  auth: 'user',
  publicApi: true,
  summary: 'Make a marketplace packshot of a product photo',
  body: PackshotRequest,
  idempotent: true,
  response: GenerationStarted,
  errors: { 403: ROUTE_ERRORS.notYours, 409: ROUTE_ERRORS.imageNotReady },
  sample: { body: { clothingItemId: SAMPLE_IDS.clothingItem, marketplace: 'amazon', shadow: true } },
}))();

/** A refined cutout mask: at most this many bytes of PNG (a one-channel 1600 px mask compresses to far less). */
export const CUTOUT_MASK_MAX_BYTES = 2 * 1024 * 1024;
/** A packshot can be rendered again from a refined mask this many times (each render is the studio's CPU, not a sale). */
export const MAX_CUTOUT_REFINEMENTS = 20;

/** What the "Refine cutout" brush draws on: the photo, the mask the packshot was cut out by, at one size. */
export const PackshotCutout = /* @__PURE__ */ (() => z.object({
  /** The source photo (signed GET URL). */
  photoUrl: z.string(),
  /** The mask (signed GET URL): a one-channel PNG, white = product, `width` × `height`. */
  maskUrl: z.string(),
  /** The size the photo is cut out at (its own, at most 1600 px on the longer side): a refined mask must be this size. */
  width: z.number().int(),
  height: z.number().int(),
  /** Whether the mask is one the seller refined (it is used for every packshot of this photo). */
  refined: z.boolean(),
  /** How many more times this packshot can be rendered from a refined mask. */
  refinementsLeft: z.number().int(),
}))();
export type PackshotCutout = z.infer<typeof PackshotCutout>;

/**
 * GET /generations/{id}/cutout: a finished packshot's photo and mask (a POST /generate-packshot result, or a batch
 * entry's packshot photo).
 */
export const getPackshotCutoutRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/generations/{id}/cutout',
  auth: 'user',
  publicApi: true,
  summary: "A finished packshot's source photo and the cutout mask it was made from (to refine it)",
  response: PackshotCutout,
  errors: { 409: 'The packshot is not finished, or was made before cutouts could be refined (NOT_REFINABLE).' },
  sample: { params: { id: SAMPLE_IDS.generation } },
}))();

/** PUT /generations/{id}/cutout: the seller's refined mask. */
export const RefineCutoutRequest = /* @__PURE__ */ (() => z.object({
  /**
   * The refined mask as a base64 PNG: white (≥ 128) = product, black = background, exactly the `width` × `height` that
   * GET /generations/{id}/cutout gives. A shop's own tool can send one.
   */
  mask: z
    .string()
    .trim()
    .min(1, 'Send the refined mask as a PNG')
    .max(Math.ceil(CUTOUT_MASK_MAX_BYTES / 3) * 4, 'The mask is larger than 2 MB'),
}))();
export type RefineCutoutRequest = z.input<typeof RefineCutoutRequest>;

/**
 * PUT /generations/{id}/cutout. Renders the same packshot again (same photo, same preset) from the refined mask and
 * answers the updated generation. No credit moves: the render is part of the packshot's purchase. The mask is kept for
 * the photo, so every later packshot of it (a re-render, another preset) is cut out by it.
 */
export const refinePackshotCutoutRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'PUT',
  path: '/generations/{id}/cutout',
  auth: 'user',
  publicApi: true,
  summary: 'Render a packshot again from a refined cutout mask (PNG), at no charge',
  body: RefineCutoutRequest,
  response: Generation,
  errors: {
    409: `The packshot is not finished or cannot be refined (NOT_REFINABLE), or was refined ${MAX_CUTOUT_REFINEMENTS} times (REFINE_LIMIT).`,
    413: 'The mask is larger than 2 MB.',
  },
  sample: { params: { id: SAMPLE_IDS.generation }, body: { mask: '{{productPhotoBase64}}' } },
}))();
