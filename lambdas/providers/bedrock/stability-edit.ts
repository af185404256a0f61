// EditPort on the Stability AI Image Services of Amazon Bedrock (Search and Replace, Search and Recolor,
// Remove Background). Request bodies as documented in "Stability AI Image Services - Amazon Bedrock",
// https://docs.aws.amazon.com/bedrock/latest/userguide/stable-image-services.html, section Edit:
//   Search and Replace  { image, prompt, search_prompt, output_format }
//   Search and Recolor  { image, prompt, select_prompt, output_format }
//   Remove Background   { image, output_format }
// The edited image comes back at the size of the input.
import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { ProviderError, type EditPort, type ImageInput, type ImageOutput } from '../ports.js';
import { planEdit, UNSUPPORTED_EDIT_MESSAGE, type EditOperation } from './edit-instruction.js';
import { base64Length, displaySize, encodeWithin, fitWithinLimits, resampleToJpeg, resampleToPng, toExactOutput } from './image-sizing.js';
import { invokeStability, type StabilityBody } from './stability-invoke.js';
import {
  DEFAULT_STABILITY_MODEL_IDS,
  EDIT_LIMITS,
  EDIT_MAX_IMAGE_BASE64_CHARS,
  STABILITY_OUTPUT_FORMAT,
  type StabilityModelIds,
} from './stability-models.js';

export const UNSUPPORTED_ASPECT_MESSAGE =
  'This image is too narrow or too wide to edit: its sides must be within 2.5 times of each other.';

export interface StabilityEditOptions {
  client: BedrockRuntimeClient;
  modelIds?: Partial<StabilityModelIds>;
}

export function stabilityEditRequest(
  operation: EditOperation,
  image: string,
  modelIds: StabilityModelIds,
): { modelId: string; body: StabilityBody } {
  switch (operation.kind) {
    case 'remove-background':
      return { modelId: modelIds.removeBackground, body: { image, output_format: STABILITY_OUTPUT_FORMAT } };
    case 'search-replace':
      return {
        modelId: modelIds.searchReplace,
        body: { image, prompt: operation.prompt, search_prompt: operation.searchPrompt, output_format: STABILITY_OUTPUT_FORMAT },
      };
    case 'search-recolor':
      return {
        modelId: modelIds.searchRecolor,
        body: { image, prompt: operation.prompt, select_prompt: operation.selectPrompt, output_format: STABILITY_OUTPUT_FORMAT },
      };
  }
}

/**
 * The image as the edit services accept it: upright, at most 9,437,184 pixels, sides of at least 64, and small enough
 * for Bedrock's 25 MB request once base64-encoded (a 9.4 MP photo as PNG can pass 25 MB): a JPEG photo is resampled
 * to JPEG, a PNG or WebP to PNG where it fits, and anything too large becomes the best JPEG that fits (encodeWithin).
 * The answer is brought back to the input's size.
 */
export async function editInput(image: ImageInput): Promise<{ base64: string; width: number; height: number }> {
  const size = await displaySize(image.bytes);
  const longer = Math.max(size.width, size.height);
  const shorter = Math.min(size.width, size.height);
  if (longer / shorter > EDIT_LIMITS.maxAspect) throw new ProviderError('unsupported', UNSUPPORTED_ASPECT_MESSAGE);
  const target = fitWithinLimits(size, EDIT_LIMITS);
  const unchanged = !size.needsRotation && target.width === size.width && target.height === size.height;
  const lossless = image.mimeType !== 'image/jpeg';
  let bytes = image.bytes;
  if (!unchanged) bytes = lossless ? await resampleToPng(image.bytes, target, 'fill') : await resampleToJpeg(image.bytes, target);
  if (base64Length(bytes.length) > EDIT_MAX_IMAGE_BASE64_CHARS) bytes = (await encodeWithin(bytes, EDIT_MAX_IMAGE_BASE64_CHARS, { lossless })).bytes;
  return { base64: bytes.toString('base64'), width: size.width, height: size.height };
}

export function createStabilityEdit(options: StabilityEditOptions): EditPort {
  const modelIds = { ...DEFAULT_STABILITY_MODEL_IDS, ...options.modelIds };
  return {
    async edit({ image, instruction }): Promise<ImageOutput> {
      const operation = planEdit(instruction);
      if (!operation) throw new ProviderError('unsupported', UNSUPPORTED_EDIT_MESSAGE);
      const input = await editInput(image);
      const { modelId, body } = stabilityEditRequest(operation, input.base64, modelIds);
      const edited = await invokeStability(options.client, modelId, body);
      return toExactOutput(edited, { width: input.width, height: input.height }, 'fill', `bedrock:${modelId}`);
    },
  };
}
