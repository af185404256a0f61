// Bedrock's 25 MB request limit, measured on 12 MP photos (4000×3000): the body a Stability edit sends (its image
// brought to at most 9,437,184 pixels, PNG when its base64 fits, else the best JPEG that fits: editInput in
// lambdas/providers/bedrock/stability-edit.ts) and the Luma keyframe (keyframeImage in luma-request.ts), against the
// same image sent as a plain PNG (what the adapter sent before). Two photos: a studio-like one (flat backdrop, soft
// gradient, mild grain) and the worst case for PNG (sensor noise everywhere).
// Run: npx tsx bench/bedrock-request-size.ts
import sharp from 'sharp';
import { keyframeImage } from '../lambdas/providers/bedrock/luma-request.js';
import { editInput } from '../lambdas/providers/bedrock/stability-edit.js';
import { EDIT_LIMITS } from '../lambdas/providers/bedrock/stability-models.js';
import { fitWithinLimits } from '../lambdas/providers/bedrock/image-sizing.js';
import type { ImageInput } from '../lambdas/providers/ports.js';

const WIDTH = 4000;
const HEIGHT = 3000;
const LIMIT_BYTES = 25 * 1000 * 1000;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

async function studioPhoto(): Promise<ImageInput> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">` +
    `<defs><radialGradient id="g"><stop offset="0" stop-color="#f4f1ec"/><stop offset="1" stop-color="#c9c3ba"/></radialGradient></defs>` +
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="url(#g)"/>` +
    `<path d="M1500 600 L1800 450 L2200 450 L2500 600 L2800 1000 L2550 1120 L2450 1000 L2450 2600 L1550 2600 L1550 1000 L1450 1120 L1200 1000 Z" fill="#b3262e"/></svg>`;
  const grain = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 6 } } })
    .raw()
    .toBuffer();
  const base = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  for (let i = 0; i < base.length; i += 1) base[i] = Math.max(0, Math.min(255, base[i]! + grain[i]! - 128));
  const bytes = await sharp(base, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
  return { bytes, mimeType: 'image/jpeg' };
}

async function noisePhoto(): Promise<ImageInput> {
  const bytes = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .jpeg({ quality: 92 })
    .toBuffer();
  return { bytes, mimeType: 'image/jpeg' };
}

async function measure(name: string, photo: ImageInput): Promise<void> {
  const target = fitWithinLimits({ width: WIDTH, height: HEIGHT }, EDIT_LIMITS);
  const plainPng = await sharp(photo.bytes).resize(target.width, target.height).png().toBuffer();
  const plainBody = JSON.stringify({ image: plainPng.toString('base64'), prompt: 'a cap', search_prompt: 'hat', output_format: 'png' });
  let started = performance.now();
  const input = await editInput(photo);
  const editMs = performance.now() - started;
  const body = JSON.stringify({ image: input.base64, prompt: 'a cap', search_prompt: 'hat', output_format: 'png' });
  const sent = await sharp(Buffer.from(input.base64, 'base64')).metadata();
  started = performance.now();
  const keyframe = await keyframeImage(photo);
  const keyframeMs = performance.now() - started;
  console.log(`${name} (${WIDTH}×${HEIGHT}, ${mb(photo.bytes.length)} JPEG):`);
  console.log(`  edit, before: ${target.width}×${target.height} PNG → request ${mb(Buffer.byteLength(plainBody))} (${Buffer.byteLength(plainBody) < LIMIT_BYTES ? 'under' : 'OVER'} 25 MB)`);
  console.log(`  edit, now:    ${sent.width}×${sent.height} ${sent.format} → request ${mb(Buffer.byteLength(body))} (${Buffer.byteLength(body) < LIMIT_BYTES ? 'under' : 'OVER'} 25 MB), encoded in ${editMs.toFixed(0)} ms`);
  console.log(`  Luma keyframe: ${keyframe.mediaType}, ${mb(keyframe.data.length)} of base64, in ${keyframeMs.toFixed(0)} ms`);
}

await measure('studio photo', await studioPhoto());
await measure('sensor-noise photo', await noisePhoto());
