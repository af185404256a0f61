// The preview engine's ESRGAN enlargement (lambdas/providers/local-engine/esrgan.ts: esrgan-slim's weights on
// onnxruntime, in tiles): a picture enlarged in small tiles is exactly the picture enlarged in one, and it restores a
// shrunk product photo better than Lanczos does, the quality ESRGAN is there for (bench/esrgan.ts measures it on every
// fixture), and a layer the converter does not know is refused.
import { describe, expect, it } from 'vitest';
import { esrganUpscale } from '../../lambdas/providers/local-engine/esrgan.js';
import { kerasToOnnx, readKerasWeights, type KerasTopology } from '../../lambdas/providers/local-engine/keras-onnx.js';
import { decodeRgba, openRgba, toRgba, type RgbaImage } from '../../lambdas/providers/local-engine/raster.js';
import { productFixture, readProductFixture } from '../fixtures/products/catalog.js';

const SLOW = 120_000;

function psnr(a: RgbaImage, b: RgbaImage): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) if (i % 4 !== 3) sum += (a.data[i]! - b.data[i]!) ** 2;
  return 10 * Math.log10((255 * 255) / Math.max(sum / ((a.data.length * 3) / 4), 1e-9));
}

const resize = (image: RgbaImage, width: number, height: number) => toRgba(openRgba(image).resize({ width, height, fit: 'fill', kernel: 'lanczos3' }));

describe('ESRGAN on onnxruntime', () => {
  it('enlarges in tiles that join without seams: the same pixels as the picture enlarged whole', async () => {
    const photo = await decodeRgba((await readProductFixture(productFixture('dress-on-hanger'))).photo, 160);
    const whole = await esrganUpscale(photo, 2, { tile: 400, threads: 1 });
    const tiled = await esrganUpscale(photo, 2, { tile: 48, threads: 2 });
    expect({ width: tiled.width, height: tiled.height }).toEqual({ width: photo.width * 2, height: photo.height * 2 });
    expect(tiled.data.equals(whole.data)).toBe(true);
  }, SLOW);

  it('restores a product photo shrunk ×2 better than Lanczos does', async () => {
    const original = await decodeRgba((await readProductFixture(productFixture('dress-on-hanger'))).photo, 320);
    const width = original.width - (original.width % 2);
    const height = original.height - (original.height % 2);
    const reference = await resize(original, width, height);
    const small = await resize(reference, width / 2, height / 2);
    const lanczos = psnr(reference, await resize(small, width, height));
    const esrgan = psnr(reference, await esrganUpscale(small, 2));
    // bench/esrgan.ts: +2.7 dB on average over the fixtures at ×2.
    expect(esrgan - lanczos).toBeGreaterThan(1);
  }, SLOW);

  it('refuses a model layer it does not know instead of approximating it', () => {
    const topology: KerasTopology = {
      model_config: {
        config: {
          input_layers: [['in', 0, 0]],
          output_layers: [['pool', 0, 0]],
          layers: [
            { class_name: 'InputLayer', config: { name: 'in' }, inbound_nodes: [] },
            { class_name: 'MaxPooling2D', config: { name: 'pool' }, inbound_nodes: [[['in', 0, 0, {}]]] },
          ],
        },
      },
    };
    expect(() => kerasToOnnx(topology, readKerasWeights([], Buffer.alloc(0)))).toThrow(/pool \(MaxPooling2D\)/);
  });
});
