// The words the Google adapters send, as pure functions: one prompt per on-model photo (the product, the person, the
// framing, the product type and, in a batch, the angle and backdrop), the instruction that keeps a saved model's
// person, the enrichment request for promptEnhance, an edit, and a looping Omni clip whose last frame is its first.
import { MOTION_PRESETS } from '../../contracts/catalog.js';
import type { OnModelImageRequest } from '../ports.js';

const FRAMING: Record<OnModelImageRequest['cameraZoom'], string> = {
  auto: 'Frame the shot so the whole product is visible and well composed.',
  'full-body': 'Full-body shot, head to toe, the feet inside the frame.',
  'mid-shot': 'Mid shot from the waist up.',
  'close-up': 'Close-up shot on the product as worn, the face partly in frame.',
};

const PRODUCT_TYPE: Record<OnModelImageRequest['productType'], string> = {
  clothing: 'The model wears the garment from the first image, fitted naturally to the body.',
  jewelry: 'The model wears the jewelry from the first image; the jewelry is clearly visible, in sharp focus and true to scale.',
};

const ANGLE: Record<NonNullable<OnModelImageRequest['angle']>, string> = {
  Product: 'Camera angle: a product-focused shot, the product filling most of the frame.',
  Front: 'Camera angle: from the front, the model facing the camera.',
  Back: 'Camera angle: from behind, showing the back of the product.',
  'Full Body': 'Camera angle: full body, head to toe.',
  'Mid-shot': 'Camera angle: mid shot from the waist up.',
  Side: 'Camera angle: from the side, in profile.',
};

export const REFERENCE_PERSON_INSTRUCTION =
  'The second image is a reference portrait of the model: keep exactly this person (face, skin tone, hair and build); take nothing else from it.';

/** One prompt for an on-model photo. `description` is the model description, enriched when promptEnhance was on. */
export function onModelPrompt(request: OnModelImageRequest, description: string): string {
  return [
    'Create a professional e-commerce fashion photograph of a model wearing the product shown in the first image.',
    'Reproduce the product exactly: its colour, pattern, print, logo, texture, cut and details; do not invent or remove parts of it.',
    `The model: ${description.trim()}.`,
    request.model.referenceImage ? REFERENCE_PERSON_INSTRUCTION : '',
    PRODUCT_TYPE[request.productType],
    request.angle ? ANGLE[request.angle] : FRAMING[request.cameraZoom],
    request.backdrop
      ? `Backdrop: a plain seamless studio backdrop in the colour ${request.backdrop}.`
      : 'Backdrop: a clean, softly lit studio background.',
    'Soft, even studio lighting, photorealistic, sharp focus, no text, no watermark.',
  ]
    .filter(Boolean)
    .join(' ');
}

/** What the text model is asked when promptEnhance is on: the description made a detailed, photographic one. */
export function enrichmentPrompt(description: string, productType: OnModelImageRequest['productType']): string {
  return [
    'You write briefs for e-commerce fashion photo shoots.',
    `Rewrite this model description as one detailed sentence for an image model: "${description.trim()}".`,
    'Keep every fact it gives (gender presentation, age, skin tone, hair, build) and add what a photographer would set:',
    `pose, expression, styling that suits ${productType === 'jewelry' ? 'jewelry' : 'the garment'}, and lighting.`,
    'Answer with the sentence only, at most 60 words.',
  ].join(' ');
}

/** A free-text edit: the instruction as written, the rest of the photo kept. */
export function editPrompt(instruction: string): string {
  return `Edit this photograph: ${instruction.trim()}. Change only what the instruction asks; keep everything else, the product above all, exactly as it is.`;
}

const PRESET_MOTION: Record<(typeof MOTION_PRESETS)[number], string> = {
  Pivot: 'The model turns slowly on the spot to show the product from the side, then turns back to face the camera',
  Catwalk: 'The model takes a few confident catwalk steps, turns and walks back to the starting spot',
  '360 Spin': 'The camera orbits smoothly all the way around the model and the product, back to where it began',
};

/**
 * The words of one Omni clip: the motion, its length, one unbroken shot ("To force a continuous, single-camera
 * perspective, explicitly specify: In a single unbroken scene"), and what must not appear ("state clear prohibitions
 * directly in natural language: No dialogue or voiceover. No text overlay on screen"; the Omni cookbook's prompting
 * guide, read 2026-11-27). The clip starts and ends on the product photo (two keyframes), so it loops.
 */
export function loopPrompt(prompt: string, seconds: number): string {
  const preset = MOTION_PRESETS.find((name) => name.toLowerCase() === prompt.trim().toLowerCase());
  const motion = preset ? PRESET_MOTION[preset] : prompt.trim();
  return [
    `A ${seconds} second fashion product video in a single unbroken scene: ${motion}.`,
    'Continuous shot with no scene cuts, studio lighting, steady framing. The video starts on the first image and ends exactly on the second image, so it loops seamlessly.',
    'No dialogue or voiceover. No music. No text overlay on screen.',
  ]
    .join(' ')
    .slice(0, 2000);
}
