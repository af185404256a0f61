// The ratios of on-model pictures and what an upscale makes of a source in each.
import { describe, expect, it } from 'vitest';
import { IMAGE_ASPECT_RATIOS, IMAGE_SIZES_BY_RATIO, imageSizeFor, upscaleRefusal, upscaleSizeFor } from '../../lambdas/contracts/image-ratios.js';
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

  it('keeps the sizes image generation names: 2K is 1440×2560 at 9:16 and 2048×2048 square', () => {
    expect(IMAGE_SIZES_BY_RATIO['9:16']).toEqual({ '1k': { width: 720, height: 1280 }, '2k': { width: 1440, height: 2560 }, '4k': { width: 2880, height: 5120 } });
    expect(IMAGE_SIZES_BY_RATIO['1:1']['2k']).toEqual({ width: 2048, height: 2048 });
    expect(IMAGE_SIZES_BY_RATIO['4:5']['4k']).toEqual({ width: 4096, height: 5120 });
    expect(IMAGE_SIZES_BY_RATIO['3:4']['1k']).toEqual({ width: 960, height: 1280 });
  });

  it('upscales in the source’s own ratio to the size image generation gives that name', () => {
    expect(upscaleSizeFor('2k', { width: 720, height: 1280 })).toEqual({ width: 1440, height: 2560 });
    expect(upscaleSizeFor('8k', { width: 1440, height: 2560 })).toEqual({ width: 5760, height: 10240 });
    // "2K" of a square is the 2K square image generation makes (2048×2048), never 1920×1920.
    expect(upscaleSizeFor('2k', { width: 1024, height: 1024 })).toEqual(imageSizeFor('2k', '1:1'));
    expect(upscaleSizeFor('4k', { width: 2048, height: 2048 })).toEqual(imageSizeFor('4k', '1:1'));
    for (const ratio of IMAGE_ASPECT_RATIOS) {
      expect(upscaleSizeFor('4k', imageSizeFor('1k', ratio)), ratio).toEqual(imageSizeFor('4k', ratio));
    }
    const portrait = upscaleSizeFor('4k', { width: 2048, height: 2560 });
    expect(aspectRatioOf(portrait)).toBe('4:5');
    const odd = upscaleSizeFor('2k', { width: 601, height: 701 });
    expect(Math.abs(odd.width / odd.height - 601 / 701)).toBeLessThan(0.002);
    expect(Math.max(odd.width, odd.height)).toBeLessThanOrEqual(2560);
  });

  it('refuses a target that is not larger than the source, with the sizes in the reason', () => {
    // The two pictures: a 2K 9:16 and a 2K 1:1 upscaled to 2K.
    expect(upscaleRefusal('2k', { width: 1440, height: 2560 })).toBe(
      'This picture is already 1440×2560: 2K at its ratio is 1440×2560, not larger. Choose a larger size.',
    );
    expect(upscaleRefusal('2k', { width: 2048, height: 2048 })).toContain('2K at its ratio is 2048×2048, not larger');
    expect(upscaleRefusal('2k', { width: 3000, height: 3000 })).toContain('already 3000×3000');
    expect(upscaleRefusal('4k', { width: 2048, height: 2048 })).toBeUndefined();
    expect(upscaleRefusal('2k', { width: 720, height: 1280 })).toBeUndefined();
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
