// The ratios of on-model pictures and what an upscale makes of a source in each.
import { describe, expect, it } from 'vitest';
import { IMAGE_ASPECT_RATIOS, IMAGE_SIZES_BY_RATIO, imageSizeFor, upscaleSizeFor } from '../../lambdas/contracts/image-ratios.js';
import { aspectRatioOf } from '../../lambdas/providers/ports.js';
import { creditCount, plural } from '../../lambdas/contracts/plural.js';

describe('image ratios', () => {
  it('makes every ratio exactly at 1K, 2K and 4K, 9:16 by default', () => {
    for (const ratio of IMAGE_ASPECT_RATIOS) {
      for (const size of ['1k', '2k', '4k'] as const) expect(aspectRatioOf(IMAGE_SIZES_BY_RATIO[ratio][size])).toBe(ratio);
    }
    expect(imageSizeFor('2k', undefined)).toEqual({ width: 1440, height: 2560 });
    expect(imageSizeFor('1k', '1:1')).toEqual({ width: 1024, height: 1024 });
  });

  it('upscales in the source’s own ratio at the resolution’s pixel count', () => {
    expect(upscaleSizeFor('2k', { width: 720, height: 1280 })).toEqual({ width: 1440, height: 2560 });
    expect(upscaleSizeFor('2k', { width: 1024, height: 1024 })).toEqual({ width: 1920, height: 1920 });
    const portrait = upscaleSizeFor('4k', { width: 2048, height: 2560 });
    expect(aspectRatioOf(portrait)).toBe('4:5');
    expect(portrait.width * portrait.height).toBeLessThanOrEqual(2880 * 5120);
    const odd = upscaleSizeFor('2k', { width: 601, height: 701 });
    expect(Math.abs(odd.width / odd.height - 601 / 701)).toBeLessThan(0.002);
  });

  it('counts with one plural helper', () => {
    expect([creditCount(1), creditCount(3), creditCount(1000), plural(1, 'photo'), plural(2, 'batch', 'batches')]).toEqual([
      '1 credit',
      '3 credits',
      '1,000 credits',
      '1 photo',
      '2 batches',
    ]);
  });
});
