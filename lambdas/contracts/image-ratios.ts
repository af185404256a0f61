// The aspect ratios of on-model pictures (image generation and batch photos): the portrait 9:16 that stays the default,
// and the square, 4:5 and 3:4 that marketplaces and social feeds ask for, each at 1K, 2K and 4K and priced by the same
// tiers. Upscaling keeps the ratio of its source.
import { IMAGE_SIZES, type UPSCALE_RESOLUTIONS } from './catalog.js';

export const IMAGE_ASPECT_RATIOS = ['9:16', '1:1', '4:5', '3:4'] as const;
export type ImageAspectRatio = (typeof IMAGE_ASPECT_RATIOS)[number];
export const DEFAULT_IMAGE_ASPECT_RATIO: ImageAspectRatio = '9:16';

/** What each ratio is for, as the screens say it. */
export const IMAGE_ASPECT_RATIO_HINTS: Record<ImageAspectRatio, string> = {
  '9:16': 'Stories, reels, product pages',
  '1:1': 'Amazon, Shopify, marketplaces',
  '4:5': 'Instagram feed',
  '3:4': 'Catalogues, Etsy',
};

type SizeName = keyof typeof IMAGE_SIZES;
type UpscaleName = keyof typeof UPSCALE_RESOLUTIONS;
type Size = { readonly width: number; readonly height: number };

/**
 * What a named size means, at any ratio: a box whose long side is the specification's 9:16 size (1K 1280, 2K 2560,
 * 4K 5120, 8K 10240: "2k (1440x2560)", "8k is 5760x10240") and whose short side is at most that of a square of the
 * same name (1024, 2048, 4096, 8192 px, the square sizes image generation makes). A picture of a size is the largest
 * of its ratio inside the box: 2K is 1440×2560 at 9:16, 2048×2048 at 1:1, 2048×2560 at 4:5, 1920×2560 at 3:4. Image
 * generation, an upscale's target, the screens and the result all read it here.
 */
export const SIZE_BOXES: Readonly<Record<SizeName | UpscaleName, { long: number; short: number }>> = {
  '1k': { long: 1280, short: 1024 },
  '2k': { long: 2560, short: 2048 },
  '4k': { long: 5120, short: 4096 },
  '8k': { long: 10240, short: 8192 },
};

/**
 * The largest picture of the ratio of `shape` inside the named size's box. A ratio of small terms (1:1, 4:5, 3:4, 9:16,
 * 6:7 …) is kept exactly (whole multiples of its terms); another gets the nearest even size.
 */
export function sizeInBox(name: SizeName | UpscaleName, shape: Size): Size {
  const box = SIZE_BOXES[name];
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const divisor = gcd(shape.width, shape.height);
  const [a, b] = [shape.width / divisor, shape.height / divisor];
  const scale = (long: number, short: number) => Math.min(box.long / long, box.short / short);
  if (a <= 64 && b <= 64) {
    const unit = Math.floor(scale(Math.max(a, b), Math.min(a, b)));
    return { width: a * unit, height: b * unit };
  }
  const factor = scale(Math.max(shape.width, shape.height), Math.min(shape.width, shape.height));
  const even = (value: number) => Math.max(2, Math.floor(value / 2) * 2);
  return { width: even(shape.width * factor), height: even(shape.height * factor) };
}

const RATIO_SHAPES: Readonly<Record<ImageAspectRatio, Size>> = {
  '9:16': { width: 9, height: 16 },
  '1:1': { width: 1, height: 1 },
  '4:5': { width: 4, height: 5 },
  '3:4': { width: 3, height: 4 },
};

/** The exact pixel size of each ratio at 1K, 2K and 4K (sizeInBox: 9:16's are IMAGE_SIZES, a square's 1024/2048/4096). */
export const IMAGE_SIZES_BY_RATIO: Readonly<Record<ImageAspectRatio, Readonly<Record<SizeName, Size>>>> = Object.fromEntries(
  IMAGE_ASPECT_RATIOS.map((ratio) => [ratio, Object.fromEntries((Object.keys(IMAGE_SIZES) as SizeName[]).map((name) => [name, sizeInBox(name, RATIO_SHAPES[ratio])]))]),
) as Record<ImageAspectRatio, Record<SizeName, Size>>;

/** The size of an on-model picture; a request or a row without a ratio is 9:16. */
export function imageSizeFor(size: SizeName, ratio: ImageAspectRatio | undefined): Size {
  return IMAGE_SIZES_BY_RATIO[ratio ?? DEFAULT_IMAGE_ASPECT_RATIO][size];
}

/**
 * The size an upscale makes of a source: the resolution's size (sizeInBox) in the source's own ratio, so a "2K 1:1"
 * picture (2048×2048) is already 2K, and 4K makes it 4096×4096.
 */
export function upscaleSizeFor(resolution: UpscaleName, source: Size): Size {
  return sizeInBox(resolution, source);
}

/**
 * Why upscaling this source to `resolution` would not make it larger (the target is no larger than the source on
 * either side), or undefined when it would: such an upscale is never charged. The screen shows the same sentence.
 */
export function upscaleRefusal(resolution: UpscaleName, source: Size): string | undefined {
  const target = upscaleSizeFor(resolution, source);
  if (target.width > source.width && target.height > source.height) return undefined;
  return `This picture is already ${source.width}×${source.height}: ${resolution.toUpperCase()} at its ratio is ${target.width}×${target.height}, not larger. Choose a larger size.`;
}

/** The shortest side a picture the studio makes or starts from may have (px): below it nothing usable comes out. */
export const MIN_IMAGE_SIDE = 64;
/** The most elongated picture the studio makes: 10:1 or 1:10. */
export const MAX_IMAGE_RATIO = 10;

const fits = ({ width, height }: Size) => Math.min(width, height) >= MIN_IMAGE_SIDE;
const inRatio = ({ width, height }: Size) => Math.max(width, height) <= MAX_IMAGE_RATIO * Math.min(width, height);

/**
 * Why a picture of this size must not be made (an edit's crop, an upscale, any result), or undefined when it may: the
 * rules hold for the result itself, whatever instruction led to it (rounding included).
 */
export function resultSizeProblem(size: Size): string | undefined {
  if (fits(size) && inRatio(size)) return undefined;
  return (
    `This would make a ${size.width}×${size.height} px picture. Results must be at least ${MIN_IMAGE_SIDE} px on each side ` +
    `and between 1:${MAX_IMAGE_RATIO} and ${MAX_IMAGE_RATIO}:1.`
  );
}

/** Why an image is too small to start from (a product photo, a picture to edit, upscale or animate), or undefined. */
export function sourceSizeProblem(size: Size): string | undefined {
  if (fits(size)) return undefined;
  return `This image is ${size.width}×${size.height} px, too small to work from. Please use an image of at least ${MIN_IMAGE_SIDE}×${MIN_IMAGE_SIDE} px.`;
}
