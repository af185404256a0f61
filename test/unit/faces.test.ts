// The one-person check of a saved model's portrait counts faces in the pixels the upload check already decoded
// (decode.ts, within FACE_DETECTION_SIDE), as a save does, and counts the same from a file's bytes.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkImageBytes } from '../../lambdas/domain/images/decode.js';
import { countFaces, FACE_DETECTION_SIDE } from '../../lambdas/domain/images/faces.js';
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
});
