// The one-person check of a saved model's portrait counts faces in the pixels the upload check already decoded
// (decode.ts, within FACE_DETECTION_SIDE), as a save does, and counts the same from a file's bytes. Its forward pass
// (face-ssd.ts, batch normalisations folded) finds what face-api's own detectAllFaces finds, with the same scores.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkImageBytes } from '../../lambdas/domain/images/decode.js';
import { countFaces, FACE_DETECTION_SIDE, FACE_MODEL, faceScores } from '../../lambdas/domain/images/faces.js';
import { noPerson, onePerson, twoPeople } from '../fixtures/faces.js';

/** The pixels a portrait save hands to the face count: those of the upload check's one decode. */
async function checkedPixels(bytes: Buffer) {
  const check = await checkImageBytes(bytes, { pixelsWithin: FACE_DETECTION_SIDE });
  if (!check.ok || !check.pixels) throw new Error('the check kept no pixels');
  return check.pixels;
}

describe('face count', () => {
  it('counts 0, 1 and 2 faces in the pixels the upload check kept, as in the files themselves', async () => {
    const photos = [await noPerson(), await onePerson(), await twoPeople()];
    const fromPixels = [];
    for (const bytes of photos) fromPixels.push(await countFaces(await checkedPixels(bytes)));
    expect(fromPixels).toEqual([0, 1, 2]);
    const fromBytes = [];
    for (const bytes of photos) fromBytes.push(await countFaces(bytes));
    expect(fromBytes).toEqual([0, 1, 2]);
  }, 120_000);

  it('counts the one face of a phone-sized portrait stored sideways with its EXIF orientation', async () => {
    // 12 MP, stored turned a quarter to the left and tagged orientation 6: shown (and checked) upright.
    const upright = await sharp(await onePerson()).resize(3000, 4000, { fit: 'cover' }).png().toBuffer();
    const sideways = await sharp(upright)
      .rotate(-90)
      .jpeg({ quality: 85 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const pixels = await checkedPixels(sideways);
    expect({ width: pixels.width, height: pixels.height }).toEqual({ width: 384, height: 512 });
    expect(await countFaces(pixels)).toBe(1);
  }, 120_000);

  it("finds the faces face-api's own SSD detection finds, with its scores, in people and in product photos", async () => {
    const products = join(import.meta.dirname, '../fixtures/products');
    const photos = [await noPerson(), await onePerson(), readFileSync(join(import.meta.dirname, '../fixtures/faces/cameraman.jpg')), await twoPeople()];
    for (const name of readdirSync(products).filter((file) => file.endsWith('.png') && !file.endsWith('.mask.png')).slice(0, 4)) photos.push(readFileSync(join(products, name)));
    await countFaces(await onePerson()); // opens the detector: face-api's net now holds the checked weights
    // The same module instance faces.ts loaded (the installed node-wasm build), to ask face-api itself.
    const faceapi = createRequire(import.meta.url)(`${FACE_MODEL.package}/dist/face-api.node-wasm.js`) as {
      tf: { tensor3d(values: Int32Array, shape: number[], dtype: 'int32'): { dispose(): void } };
      SsdMobilenetv1Options: new (options: { minConfidence: number }) => unknown;
      detectAllFaces(input: unknown, options: unknown): Promise<Array<{ score: number }>>;
    };
    const ours: number[][] = [];
    const theirs: number[][] = [];
    for (const bytes of photos) {
      const pixels = await checkedPixels(bytes);
      ours.push(await faceScores(pixels));
      const input = faceapi.tf.tensor3d(Int32Array.from(pixels.data), [pixels.height, pixels.width, 3], 'int32');
      const found = await faceapi.detectAllFaces(input, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 }));
      input.dispose();
      theirs.push(found.map(({ score }) => score).sort((a, b) => b - a));
    }
    expect(ours.map((scores) => scores.length)).toEqual([0, 1, 1, 2, 0, 0, 0, 0]);
    expect(theirs.map((scores) => scores.length)).toEqual([0, 1, 1, 2, 0, 0, 0, 0]);
    ours.forEach((scores, photo) => scores.forEach((score, face) => expect(score).toBeCloseTo(theirs[photo]![face]!, 4)));
  }, 120_000);
});
