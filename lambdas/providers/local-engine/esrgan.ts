// ESRGAN enlargement of an RGBA picture (the alpha is dropped: the result is opaque): esrgan-model.ts, the esrgan-slim
// network on onnxruntime, in tiles.
import { ESRGAN_TILE, esrganThreadCount, runEsrgan, type EsrganScale } from './esrgan-model.js';
import type { RgbaImage } from './raster.js';

export { ESRGAN_SCALES, type EsrganScale } from './esrgan-model.js';

export interface EsrganOptions {
  /** onnxruntime's threads; default esrganThreadCount(). */
  threads?: number;
  /** The tile side (source pixels); default ESRGAN_TILE. */
  tile?: number;
}

/** The picture (RGB of `image`, alpha dropped) enlarged `scale` times by ESRGAN. */
export async function esrganUpscale(image: RgbaImage, scale: EsrganScale, options: EsrganOptions = {}): Promise<RgbaImage> {
  const { width, height } = image;
  const rgb = new Uint8Array(width * height * 3);
  for (let p = 0, i = 0; p < rgb.length; p += 3, i += 4) {
    rgb[p] = image.data[i]!;
    rgb[p + 1] = image.data[i + 1]!;
    rgb[p + 2] = image.data[i + 2]!;
  }
  const enlarged = await runEsrgan({ rgb, width, height }, scale, { tile: options.tile ?? ESRGAN_TILE, threads: options.threads ?? esrganThreadCount() });
  const data = Buffer.alloc(enlarged.width * enlarged.height * 4, 255);
  for (let p = 0, i = 0; p < enlarged.rgb.length; p += 3, i += 4) {
    data[i] = enlarged.rgb[p]!;
    data[i + 1] = enlarged.rgb[p + 1]!;
    data[i + 2] = enlarged.rgb[p + 2]!;
  }
  return { data, width: enlarged.width, height: enlarged.height };
}
