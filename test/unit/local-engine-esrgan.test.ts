// The preview engine's ESRGAN enlargement in worker threads (lambdas/providers/local-engine/esrgan.ts): the calling
// thread never loads TensorFlow.js, and a picture enlarged in bands (one per core) is the picture enlarged whole.
import { describe, expect, it } from 'vitest';
import { esrganUpscale } from '../../lambdas/providers/local-engine/esrgan.js';
import { decodeRgba, type RgbaImage } from '../../lambdas/providers/local-engine/raster.js';
import { productFixture, readProductFixture } from '../fixtures/products/catalog.js';

const SLOW = 180_000;

function psnr(a: RgbaImage, b: RgbaImage): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) if (i % 4 !== 3) sum += (a.data[i]! - b.data[i]!) ** 2;
  return 10 * Math.log10((255 * 255) / Math.max(sum / ((a.data.length * 3) / 4), 1e-9));
}

describe('ESRGAN in worker threads', () => {
  it('enlarges in bands that join without seams, and never loads TensorFlow.js in the calling thread', async () => {
    const photo = await decodeRgba((await readProductFixture(productFixture('dress-on-hanger'))).photo, 160);
    const whole = await esrganUpscale(photo, 2, { workers: 1 });
    const banded = await esrganUpscale(photo, 2, { workers: 3 });
    expect({ width: banded.width, height: banded.height }).toEqual({ width: photo.width * 2, height: photo.height * 2 });
    expect(whole.width).toBe(banded.width);
    // The same model on the same pixels: only the rows at the bands' joins may differ, by a little.
    expect(psnr(whole, banded)).toBeGreaterThan(45);
    // TensorFlow.js registers its engine globally where it loads (tfjs-core's `_tfengine`).
    expect((globalThis as { _tfengine?: unknown })._tfengine).toBeUndefined();
  }, SLOW);
});
