// POST /generate-packshot: a product photo made into a marketplace packshot (lambdas/domain/marketplace/packshot.ts),
// through the spending flow and the generation workflow like every image operation.
// Schemas are built in `/* @__PURE__ */` calls so that a bundle builds only those it reads (see api.ts).
import * as z from 'zod';
import { GenerationStarted } from './generations.js';
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
