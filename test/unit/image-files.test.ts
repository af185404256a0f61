// The upload rules shared by the web app and the server, and the byte-level checks of uploaded images.
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CLOTHING_MAX_BYTES, MB } from '../../lambdas/contracts/catalog.js';
import {
  checkImageFile,
  declaredImageType,
  fileNameWithoutExtension,
  formatFileSize,
  imageFileProblemTitle,
} from '../../lambdas/contracts/upload-rules.js';
import { checkImageBytes } from '../../lambdas/domain/images/decode.js';
import { detectImageType } from '../../lambdas/domain/images/file-type.js';

const picture = () =>
  sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 180, g: 40, b: 90 } } }).composite([
    { input: Buffer.from('<svg width="320" height="240"><circle cx="160" cy="120" r="90" fill="#1e3a8a"/></svg>') },
  ]);

describe('upload rules: JPEG, PNG or WebP, by type or extension, within the size limits', () => {
  it('accepts JPEG, JPG, PNG and WebP by declared type, or by extension when the browser gave no type', () => {
    expect(declaredImageType('image/jpeg', 'a.jpg')).toBe('image/jpeg');
    expect(declaredImageType('image/jpg', 'a.jpg')).toBe('image/jpeg');
    expect(declaredImageType('IMAGE/PNG', 'a.png')).toBe('image/png');
    expect(declaredImageType('image/webp', 'a')).toBe('image/webp');
    expect(declaredImageType('', 'dress.WEBP')).toBe('image/webp');
    expect(declaredImageType('', 'dress.jpeg')).toBe('image/jpeg');
    expect(declaredImageType('image/gif', 'a.png')).toBeUndefined();
    expect(declaredImageType('text/plain', 'notes.png')).toBeUndefined();
    expect(declaredImageType('', 'notes.txt')).toBeUndefined();
    expect(declaredImageType('', 'no-extension')).toBeUndefined();
  });

  it("answers 'Invalid file type' / 'Please upload a JPEG, PNG, or WebP image' for other types", () => {
    expect(checkImageFile({ name: 'a.gif', type: 'image/gif', size: 10 }, CLOTHING_MAX_BYTES)).toEqual({
      code: 'INVALID_FILE_TYPE',
      title: 'Invalid file type',
      description: 'Please upload a JPEG, PNG, or WebP image',
    });
  });

  it("answers 'File too large' with the actual size above 12 MB, and accepts exactly 12 MB", () => {
    expect(checkImageFile({ name: 'a.png', type: 'image/png', size: CLOTHING_MAX_BYTES }, CLOTHING_MAX_BYTES)).toBeUndefined();
    expect(checkImageFile({ name: 'a.png', type: 'image/png', size: 13 * MB }, CLOTHING_MAX_BYTES)).toEqual({
      code: 'FILE_TOO_LARGE',
      title: 'File too large',
      description: 'This file is 13 MB. The maximum size is 12 MB.',
    });
    // One byte over still shows a size that differs from the limit.
    expect(checkImageFile({ name: 'a.png', type: 'image/png', size: CLOTHING_MAX_BYTES + 1 }, CLOTHING_MAX_BYTES)?.description).toBe(
      'This file is 12 MB (12,582,913 bytes). The maximum size is 12 MB.',
    );
    expect(imageFileProblemTitle('FILE_TOO_LARGE')).toBe('File too large');
    expect(imageFileProblemTitle('INVALID_FILE_TYPE')).toBe('Invalid file type');
    expect(imageFileProblemTitle('SOMETHING_ELSE')).toBeUndefined();
  });

  it('formats sizes and takes batch item names from file names without their extension', () => {
    expect(formatFileSize(13.24 * MB)).toBe('13.24 MB');
    expect(formatFileSize(850 * 1024)).toBe('850 KB');
    expect(formatFileSize(120)).toBe('120 bytes');
    expect(fileNameWithoutExtension('Red summer dress.final.jpg')).toBe('Red summer dress.final');
    expect(fileNameWithoutExtension('.hidden')).toBe('.hidden');
    expect(fileNameWithoutExtension('C:\\photos\\kurta.png')).toBe('kurta');
  });
});

describe('image bytes', () => {
  it('tells JPEG, PNG and WebP apart by magic bytes, whatever the file is called', async () => {
    expect(detectImageType(await picture().jpeg().toBuffer())).toBe('image/jpeg');
    expect(detectImageType(await picture().png().toBuffer())).toBe('image/png');
    expect(detectImageType(await picture().webp().toBuffer())).toBe('image/webp');
    expect(detectImageType(await picture().gif().toBuffer())).toBeUndefined();
    expect(detectImageType(Buffer.from('hello, this is text'))).toBeUndefined();
    expect(detectImageType(Buffer.from('RIFF0000WAVE'))).toBeUndefined();
    expect(detectImageType(Buffer.alloc(0))).toBeUndefined();
  });

  it('accepts whole images with their size and refuses truncated, corrupt and foreign ones', async () => {
    for (const [format, mimeType] of [['jpeg', 'image/jpeg'], ['png', 'image/png'], ['webp', 'image/webp']] as const) {
      const whole = await picture().toFormat(format).toBuffer();
      await expect(checkImageBytes(whole)).resolves.toEqual({ ok: true, mimeType, width: 320, height: 240 });
      const truncated = whole.subarray(0, Math.floor(whole.length * 0.6));
      await expect(checkImageBytes(truncated)).resolves.toEqual({ ok: false, reason: 'undecodable' });
    }
    const png = await picture().png().toBuffer();
    const corrupt = Buffer.concat([png.subarray(0, 40), Buffer.alloc(png.length - 40, 0x55)]);
    await expect(checkImageBytes(corrupt)).resolves.toEqual({ ok: false, reason: 'undecodable' });
    await expect(checkImageBytes(await picture().gif().toBuffer())).resolves.toEqual({ ok: false, reason: 'not-an-image' });
  });

  it('keeps the pixels of its one decode when asked: upright, RGB, within the side asked, never enlarged', async () => {
    // Stored 320×240 with its left half red and its right half blue, tagged EXIF orientation 6 (turn 90° clockwise to
    // show it): upright it is 240×320, red on top.
    const halves = sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 220, g: 0, b: 0 } } }).composite([
      { input: { create: { width: 160, height: 240, channels: 3, background: { r: 0, g: 0, b: 220 } } }, left: 160, top: 0 },
    ]);
    const sideways = await sharp(await halves.png().toBuffer()).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const check = await checkImageBytes(sideways, { pixelsWithin: 160 });
    if (!check.ok || !check.pixels) throw new Error(`expected pixels, got ${JSON.stringify(check)}`);
    expect({ ...check, pixels: { width: check.pixels.width, height: check.pixels.height, bytes: check.pixels.data.length } }).toEqual({
      ok: true,
      mimeType: 'image/jpeg',
      // Sizes are reported upright, as the studio sizes results from them.
      width: 240,
      height: 320,
      pixels: { width: 120, height: 160, bytes: 120 * 160 * 3 },
    });
    const at = (x: number, y: number) => [...check.pixels!.data.subarray((y * 120 + x) * 3, (y * 120 + x) * 3 + 3)];
    expect(at(60, 10)[0]).toBeGreaterThan(150);
    expect(at(60, 150)[2]).toBeGreaterThan(150);
    // A small grey picture with alpha is kept at its size, as three channels.
    const grey = await sharp({ create: { width: 90, height: 60, channels: 4, background: { r: 99, g: 99, b: 99, alpha: 0.5 } } }).toColourspace('b-w').png().toBuffer();
    const small = await checkImageBytes(grey, { pixelsWithin: 512 });
    expect(small.ok && small.pixels && { width: small.pixels.width, height: small.pixels.height, bytes: small.pixels.data.length }).toEqual({ width: 90, height: 60, bytes: 90 * 60 * 3 });
    // Asked or not, a truncated file is refused, and pixels are kept only when asked.
    await expect(checkImageBytes(sideways.subarray(0, Math.floor(sideways.length * 0.6)), { pixelsWithin: 160 })).resolves.toEqual({ ok: false, reason: 'undecodable' });
    expect(await checkImageBytes(sideways)).not.toHaveProperty('pixels');
  });

  it('refuses images over the pixel limit before decoding them', async () => {
    // A PNG whose header says 12,000 × 10,000 (120 megapixels), with a valid header checksum.
    const png = Buffer.from(await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } }).png().toBuffer());
    png.writeUInt32BE(12_000, 16);
    png.writeUInt32BE(10_000, 20);
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
    await expect(checkImageBytes(png)).resolves.toEqual({ ok: false, reason: 'too-many-pixels' });
  });
});
