// The aspect ratios of on-model pictures (image generation and batch photos): the portrait 9:16 that stays the default,
// and the square, 4:5 and 3:4 that marketplaces and social feeds ask for, each at 1K, 2K and 4K and priced by the same
// tiers. Upscaling keeps the ratio of its source.
import { IMAGE_SIZES, UPSCALE_RESOLUTIONS } from './catalog.js';

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
type Size = { readonly width: number; readonly height: number };

/** The exact pixel size of each ratio at 1K, 2K and 4K (the long edge of 9:16's, or 1024/2048/4096 for a square). */
export const IMAGE_SIZES_BY_RATIO: Readonly<Record<ImageAspectRatio, Readonly<Record<SizeName, Size>>>> = {
  '9:16': IMAGE_SIZES,
  '1:1': { '1k': { width: 1024, height: 1024 }, '2k': { width: 2048, height: 2048 }, '4k': { width: 4096, height: 4096 } },
  '4:5': { '1k': { width: 1024, height: 1280 }, '2k': { width: 2048, height: 2560 }, '4k': { width: 4096, height: 5120 } },
  '3:4': { '1k': { width: 960, height: 1280 }, '2k': { width: 1920, height: 2560 }, '4k': { width: 3840, height: 5120 } },
};

/** The size of an on-model picture; a request or a row without a ratio is 9:16. */
export function imageSizeFor(size: SizeName, ratio: ImageAspectRatio | undefined): Size {
  return IMAGE_SIZES_BY_RATIO[ratio ?? DEFAULT_IMAGE_ASPECT_RATIO][size];
}

/**
 * The size an upscale makes of a source: the resolution's pixel count (2K = 1440×2560's) in the source's own ratio.
 * A 9:16 source gets the resolution's catalogue size exactly; other ratios get whole multiples of the ratio when its
 * terms are small (1:1, 4:5, 3:4, …), else the nearest even size.
 */
export function upscaleSizeFor(resolution: keyof typeof UPSCALE_RESOLUTIONS, source: Size): Size {
  const target = UPSCALE_RESOLUTIONS[resolution];
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const divisor = gcd(source.width, source.height);
  const [a, b] = [source.width / divisor, source.height / divisor];
  if (a * 16 === b * 9) return { width: target.width, height: target.height };
  const area = target.width * target.height;
  if (a <= 64 && b <= 64) {
    const unit = Math.floor(Math.sqrt(area / (a * b)));
    return { width: a * unit, height: b * unit };
  }
  const height = Math.sqrt((area * source.height) / source.width);
  const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
  return { width: even((height * source.width) / source.height), height: even(height) };
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
