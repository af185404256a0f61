// What tests measure on a delivered picture, as a marketplace would: the pixels of its border that are not pure white.
import sharp from 'sharp';

/** How many pixels of the picture's outermost row and column on each side are not exactly 255,255,255. */
export async function offWhiteBorderPixels(bytes: Buffer): Promise<number> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let offWhite = 0;
  const check = (x: number, y: number) => {
    const i = (y * info.width + x) * info.channels;
    if (data[i] !== 255 || data[i + 1] !== 255 || data[i + 2] !== 255) offWhite++;
  };
  for (let x = 0; x < info.width; x++) {
    check(x, 0);
    check(x, info.height - 1);
  }
  for (let y = 0; y < info.height; y++) {
    check(0, y);
    check(info.width - 1, y);
  }
  return offWhite;
}
