// The `inputs` of a FASHN product-to-model prediction, built from an on-model image request.
// Source: "Product to Model - FASHN", https://docs.fashn.ai/api-reference/product-to-model, and the official SDK's
// generated types (fashn-AI/fashn-typescript-sdk, src/resources/predictions.ts, ProductToModelRequest.Inputs):
//   product_image (URL or base64 with its data:image/...;base64, prefix), model_image? (try-on mode), prompt?,
//   aspect_ratio? ('1:1' '2:3' '3:4' '4:5' '5:4' '4:3' '3:2' '16:9' '9:16'), resolution? ('1k' '2k' '4k'),
//   output_format? ('png' | 'jpeg'), return_base64?, seed?, generation_mode?, image_prompt?, face_reference? (URL or
//   base64 with its prefix), face_reference_mode? ('match_base' | 'match_reference'), generation_mode? ('fast' |
//   'balanced' | 'quality'), which sets the credits with the resolution: the mode is always sent, the one the dated
//   model table prices at that resolution (model-table.ts), so the bill is the table's and never FASHN's default of
//   the day ("omitted generation_mode is currently billed as 'fast' at 1k and as 'balanced' at 2k or 4k").
// model_image is not sent: ModelLoop generates a new person from the model description (standard mode). The model's
// seed is always sent, so the same model repeats itself. A saved model's portrait goes as face_reference, which FASHN
// adds 3 credits per image (lambdas/providers/list-prices.ts; the face-reference pricing tier).
import sharp from 'sharp';
import type { ImageInput, OnModelImageRequest, Size } from '../ports.js';
import { FASHN_MODELS, FASHN_PRODUCT_TO_MODEL, type FashnResolution } from './model-table.js';

export { FASHN_PRODUCT_TO_MODEL };

const ASPECT_RATIOS = ['1:1', '2:3', '3:4', '4:5', '5:4', '4:3', '3:2', '16:9', '9:16'] as const;
/** Large base64 payloads are FASHN's documented cause of HTTP 500 ("Troubleshooting", docs.fashn.ai). */
const MAX_PRODUCT_SIDE = 2048;

const FRAMING: Record<OnModelImageRequest['cameraZoom'], string> = {
  auto: '',
  'full-body': 'full body shot, head to toe',
  'mid-shot': 'mid shot from the waist up',
  'close-up': 'close-up shot',
};
const JEWELRY_FOCUS = 'the jewelry clearly visible and in sharp focus';
const ENHANCED_STYLE = 'professional e-commerce fashion photograph, soft studio lighting, clean background';

export function nearestAspectRatio(size: Size): (typeof ASPECT_RATIOS)[number] {
  const wanted = Math.log(size.width / size.height);
  const ratio = (name: string) => {
    const [w, h] = name.split(':').map(Number) as [number, number];
    return Math.abs(Math.log(w / h) - wanted);
  };
  return ASPECT_RATIOS.reduce((best, name) => (ratio(name) < ratio(best) ? name : best));
}

export function resolutionFor(size: Size): FashnResolution {
  const longer = Math.max(size.width, size.height);
  return longer <= 1280 ? '1k' : longer <= 2560 ? '2k' : '4k';
}

export function fashnPrompt(request: Pick<OnModelImageRequest, 'model' | 'productType' | 'cameraZoom' | 'promptEnhance'>): string {
  return [
    request.model.description.trim(),
    FRAMING[request.cameraZoom],
    request.productType === 'jewelry' ? JEWELRY_FOCUS : '',
    request.promptEnhance ? ENHANCED_STYLE : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * How the portrait shapes the picture: 'match_base' keeps the pose and framing of the prompt (camera zoom, batch angle)
 * and takes only the identity from the portrait; 'match_reference' would copy the portrait's own pose and expression.
 */
export const FACE_REFERENCE_MODE = 'match_base';

/** An input image as a data URL: upright, at most 2048 px a side; JPEG and PNG pass unchanged when they fit. */
export async function imageDataUrl(image: ImageInput): Promise<string> {
  const meta = await sharp(image.bytes).metadata();
  const fits = (meta.orientation ?? 1) === 1 && Math.max(meta.width ?? 0, meta.height ?? 0) <= MAX_PRODUCT_SIDE;
  if (fits && image.mimeType !== 'image/webp') return `data:${image.mimeType};base64,${image.bytes.toString('base64')}`;
  const png = await sharp(image.bytes)
    .rotate()
    .resize(MAX_PRODUCT_SIDE, MAX_PRODUCT_SIDE, { fit: 'inside', withoutEnlargement: true, kernel: sharp.kernel.lanczos3 })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

export async function productToModelInputs(request: OnModelImageRequest): Promise<Record<string, string | number | boolean>> {
  const portrait = request.model.referenceImage;
  const resolution = resolutionFor(request.size);
  return {
    product_image: await imageDataUrl(request.product),
    prompt: fashnPrompt(request),
    aspect_ratio: nearestAspectRatio(request.size),
    resolution,
    generation_mode: FASHN_MODELS[FASHN_PRODUCT_TO_MODEL].credits[resolution].mode,
    output_format: 'png',
    return_base64: false,
    seed: request.model.seed,
    ...(portrait ? { face_reference: await imageDataUrl(portrait), face_reference_mode: FACE_REFERENCE_MODE } : {}),
  };
}
