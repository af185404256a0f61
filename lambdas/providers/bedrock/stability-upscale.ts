// UpscalePort on Stability Fast Upscale (Amazon Bedrock) followed by an exact Lanczos resample.
// Source: "Stability AI Image Services - Amazon Bedrock",
// https://docs.aws.amazon.com/bedrock/latest/userguide/stable-image-services.html, section Upscale > Fast Upscale:
// body { image, output_format }; it "enhances image resolution by 4 times"; the input must be 32–1,536 px per side
// and 1,024–1,048,576 px in total.
//
// Plan: the source is first resampled (Lanczos, centre-cropped to the target's aspect ratio) to a quarter of the
// target, shrunk further where that exceeds the documented input limits; Fast Upscale multiplies it by 4; the
// result is resampled to exactly the requested size. 2k (1440×2560) and 4k (2880×5120) fit the limits exactly
// (inputs 360×640 and 720×1280), so their final resample is a no-op; 8k (5760×10240) would need a 1440×2560 input,
// which is over the limits, so it is made by Lanczos from the largest 4×-output the service accepts (768×1365 in,
// 3072×5460 out, i.e. from a 4k-class result).
import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type { ImageOutput, Size, UpscalePort } from '../ports.js';
import { fitWithinLimits, resampleToPng, toExactOutput } from './image-sizing.js';
import { invokeStability } from './stability-invoke.js';
import { DEFAULT_STABILITY_MODEL_IDS, FAST_UPSCALE_LIMITS, STABILITY_OUTPUT_FORMAT } from './stability-models.js';

export interface StabilityUpscaleOptions {
  client: BedrockRuntimeClient;
  modelId?: string;
}

/** The size to send to Fast Upscale for a final image of `target`. */
export function fastUpscaleInputSize(target: Size): Size {
  const quarter = {
    width: Math.round(target.width / FAST_UPSCALE_LIMITS.factor),
    height: Math.round(target.height / FAST_UPSCALE_LIMITS.factor),
  };
  return fitWithinLimits(quarter, FAST_UPSCALE_LIMITS);
}

export function createStabilityUpscale(options: StabilityUpscaleOptions): UpscalePort {
  const modelId = options.modelId ?? DEFAULT_STABILITY_MODEL_IDS.fastUpscale;
  return {
    async upscale({ image, size }): Promise<ImageOutput> {
      const input = await resampleToPng(image.bytes, fastUpscaleInputSize(size), 'cover');
      const upscaled = await invokeStability(options.client, modelId, {
        image: input.toString('base64'),
        output_format: STABILITY_OUTPUT_FORMAT,
      });
      return toExactOutput(upscaled, size, 'fill', `bedrock:${modelId}`);
    },
  };
}
