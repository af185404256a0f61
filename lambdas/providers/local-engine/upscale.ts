// Upscale to exactly the requested size. A picture of another aspect ratio is fitted whole ('contain') and padded
// with its own background colour (its top-left pixel), never cropped: nothing of the product is lost.
//
// The enlargement starts with ESRGAN (esrgan.ts: esrgan-slim on onnxruntime, in tiles) at ×2,
// then Lanczos (lanczos3) from there to the exact size. Only ×2: on the product fixtures (bench/esrgan.ts) ×2 restores
// better than Lanczos (PSNR +2.7 dB, SSIM 0.985 against 0.981) while ×4 does not (SSIM 0.936 against 0.956).
// The line, from the same bench: ESRGAN costs about 5–7 µs of CPU per source pixel. The largest source a ×2 to 4K can
// take, a 2K picture (1440×2560, 3.7 Mpx), took 24 s of CPU on 1 thread and 37 s on 2 (November 2026, a 2-core
// machine at load 12, whose wall times, 95–99 s, were mostly the other tenants' work). The upscale runs in the
// generation workflow's own Upscale task (lambdas/workflows.ts: 900 s at 3,008 MB, the most a new AWS account allows,
// where Lambda gives about 1.7 vCPU to this function alone): about 15–25 s of wall time there, far inside the task's
// timeout, so every source up to 2K to a target up to 4K goes through ESRGAN.
// PREVIEW_ESRGAN_MAX_PIXELS moves the line (0 turns ESRGAN off). 8K targets and enlargements below ×2 are Lanczos
// alone, as is any picture when ESRGAN cannot load (a function without its weights and runtime: only the Upscale
// task's function carries them).
// Even an 8k picture (5760×10240, 59 Mpx) as input is within libvips' default input limit (268 Mpx), so no limit is
// raised; the 8k output is streamed to PNG (about 250 MB resident at most, measured).
import { log } from '../../core/log.js';
import type { Size, UpscalePort } from '../ports.js';
import type { EsrganScale } from './esrgan.js';
import { LOCAL_ENGINE_MODEL, openImage, openRgba, toImageOutput, toRgba } from './raster.js';

/** ai_model of an upscale whose enlargement ESRGAN made. */
export const ESRGAN_UPSCALE_MODEL = `${LOCAL_ENGINE_MODEL}:esrgan-slim`;
/** Sources up to this many pixels go through ESRGAN unless PREVIEW_ESRGAN_MAX_PIXELS says otherwise. */
export const ESRGAN_MAX_SOURCE_PIXELS = 1440 * 2560;
/** Targets up to this many pixels (4K, 2880×5120). */
export const ESRGAN_MAX_TARGET_PIXELS = 2880 * 5120;

function maxSourcePixels(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.PREVIEW_ESRGAN_MAX_PIXELS);
  return env.PREVIEW_ESRGAN_MAX_PIXELS !== undefined && Number.isFinite(configured) && configured >= 0 ? configured : ESRGAN_MAX_SOURCE_PIXELS;
}

/** The ESRGAN scale for this enlargement, or undefined when it is Lanczos alone. */
export function esrganScaleFor(source: Size, target: Size, maxSource = maxSourcePixels()): EsrganScale | undefined {
  if (source.width * source.height > maxSource || target.width * target.height > ESRGAN_MAX_TARGET_PIXELS) return undefined;
  const enlargement = Math.min(target.width / source.width, target.height / source.height);
  return enlargement >= 2 - 1e-6 ? 2 : undefined;
}

export interface UpscaleOptions {
  /** false: Lanczos only (for callers that measure or test the exact-size path alone). */
  superResolution?: boolean;
}

export function createLocalUpscale({ superResolution = true }: UpscaleOptions = {}): UpscalePort {
  return {
    async upscale({ image, size }) {
      const corner = await openImage(image.bytes).ensureAlpha().extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
      const background = { r: corner[0]!, g: corner[1]!, b: corner[2]!, alpha: corner[3]! / 255 };
      const fit = { width: size.width, height: size.height, fit: 'contain' as const, kernel: 'lanczos3' as const, background };
      const source = await openImage(image.bytes).metadata();
      // EXIF orientations 5–8 turn the picture a quarter: width and height swap once it is upright.
      const turned = (source.orientation ?? 1) >= 5;
      const oriented = { width: (turned ? source.height : source.width) ?? 0, height: (turned ? source.width : source.height) ?? 0 };
      const scale = superResolution ? esrganScaleFor(oriented, size) : undefined;
      if (scale) {
        try {
          const { esrganUpscale } = await import('./esrgan.js');
          const enlarged = await esrganUpscale(await toRgba(openImage(image.bytes).toColourspace('srgb')), scale);
          return { ...(await toImageOutput(openRgba(enlarged).resize(fit))), model: ESRGAN_UPSCALE_MODEL };
        } catch (error) {
          log.warn('ESRGAN unavailable, upscaling with Lanczos', { error: error instanceof Error ? error.message : String(error) });
        }
      }
      return toImageOutput(openImage(image.bytes).resize(fit));
    },
  };
}

export const localUpscale: UpscalePort = createLocalUpscale();
