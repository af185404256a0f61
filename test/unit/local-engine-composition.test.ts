// The preview engine's on-model pictures on real product pictures (test/fixtures/products): the hanger is gone, the
// necklace sits at the neckline of a bust form, nothing but the corner mark is written on a picture, a Back photo
// shows no print and no mirror image, and one persona is one person-form across angles and items.
import { describe, expect, it } from 'vitest';
import { IMAGE_SIZES } from '../../lambdas/contracts/catalog.js';
import { NECKLINE_Y } from '../../lambdas/providers/local-engine/backdrop.js';
import { localOnModelImage } from '../../lambdas/providers/local-engine/on-model-image.js';
import { seedOfDescription, type OnModelImageRequest } from '../../lambdas/providers/ports.js';
import { productFixture, readProductFixture } from '../fixtures/products/catalog.js';
import { rgbPixels } from '../fixtures/local-engine-images.js';

const SLOW = 60_000;
const SIZE = IMAGE_SIZES['1k'];
/** The full-body view (framing.ts): 1.12 figure units tall, centred at y = 0.5. */
const FULL_BODY = { height: 1.12, cy: 0.5 };

type Pixels = Awaited<ReturnType<typeof rgbPixels>>;
type Match = (r: number, g: number, b: number) => boolean;

async function picture(name: string, overrides: Partial<OnModelImageRequest> = {}): Promise<Pixels & { notRendered?: string[] }> {
  const fixture = productFixture(name);
  const { photo } = await readProductFixture(fixture);
  const description = overrides.model?.description ?? 'young female model';
  const output = await localOnModelImage.generate({
    product: { bytes: photo, mimeType: 'image/png' },
    productType: fixture.productType,
    model: { description, seed: seedOfDescription(description) },
    cameraZoom: 'auto',
    size: SIZE,
    aspectRatio: '9:16',
    promptEnhance: false,
    ...overrides,
  });
  return { ...(await rgbPixels(output.bytes)), notRendered: output.notRendered };
}

function box(image: Pixels, match: Match, region = { x0: 0, y0: 0, x1: image.width, y1: image.height }) {
  let left = Infinity, right = -1, top = Infinity, bottom = -1, count = 0;
  for (let y = region.y0; y < region.y1; y++) {
    for (let x = region.x0; x < region.x1; x++) {
      const i = (y * image.width + x) * 3;
      if (!match(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!)) continue;
      count++;
      left = Math.min(left, x); right = Math.max(right, x); top = Math.min(top, y); bottom = Math.max(bottom, y);
    }
  }
  return { left, right, top, bottom, count };
}

const near = (target: [number, number, number], tolerance: number): Match => (r, g, b) =>
  Math.abs(r - target[0]) <= tolerance && Math.abs(g - target[1]) <= tolerance && Math.abs(b - target[2]) <= tolerance;
/** Pixel row of a figure-space height in a full-body picture. */
const fullBodyRow = (y: number) => (y - FULL_BODY.cy) * (SIZE.height / FULL_BODY.height) + SIZE.height / 2;

describe('on-model composition', () => {
  it('takes a dress off its hanger and hangs it from the neckline at its own proportions', async () => {
    const image = await picture('dress-on-hanger', { cameraZoom: 'full-body' });
    const dress = box(image, near([0x16, 0x80, 0x7a], 20));
    // Where the hook was: above the dress's top and just inside it, across the dress's middle.
    const above = { x0: dress.left, x1: dress.right, y0: Math.max(0, dress.top - 60), y1: dress.top + 8 };
    expect(box(image, near([0x8a, 0x8f, 0x96], 12), above).count, 'hook-grey pixels').toBe(0);
    expect(Math.abs(dress.top - fullBodyRow(NECKLINE_Y))).toBeLessThan(6);
    // The dress in the photo is 240 × 330: the same proportions on the form.
    expect((dress.bottom - dress.top + 1) / (dress.right - dress.left + 1)).toBeCloseTo(330 / 240, 1);
  }, SLOW);

  it('wears a necklace at the neckline of a bust form: the head above it in the close-up, never stretched', async () => {
    const full = await picture('necklace-on-white', { cameraZoom: 'full-body' });
    const gold = near([0xc9, 0xa2, 0x27], 40);
    const chain = box(full, gold);
    expect(Math.abs(chain.top - fullBodyRow(NECKLINE_Y - 0.022))).toBeLessThan(8);
    expect(Math.abs((chain.left + chain.right) / 2 - SIZE.width / 2)).toBeLessThan(6);
    // The photo's necklace is 205 wide and 190 tall (chain and pendant).
    expect((chain.bottom - chain.top + 1) / (chain.right - chain.left + 1)).toBeCloseTo(190 / 205, 1);

    const closeUp = await picture('necklace-on-white');
    const necklace = box(closeUp, gold);
    const hair = box(closeUp, near([0x3a, 0x2a, 0x20], 12));
    expect(necklace.count).toBeGreaterThan(1000);
    expect(hair.count, 'the head above the necklace').toBeGreaterThan(5000);
    expect(hair.top).toBeLessThan(necklace.top);
  }, SLOW);

  it('writes nothing on a batch photo but the corner mark', async () => {
    for (const angle of ['Back', 'Side', 'Front'] as const) {
      const image = await picture('tshirt-on-white', { angle, backdrop: '#e8eef5' });
      // The top-left quarter holds only the studio's vertical gradient: every row is one colour.
      let ink = 0;
      for (let y = 0; y < image.height * 0.12; y++) {
        const first = (y * image.width) * 3;
        for (let x = 0; x < image.width * 0.3; x++) {
          const i = (y * image.width + x) * 3;
          if (Math.abs(image.data[i]! - image.data[first]!) > 3 || Math.abs(image.data[i + 2]! - image.data[first + 2]!) > 3) ink++;
        }
      }
      expect(ink, angle).toBe(0);
    }
  }, SLOW);

  it('shows the back as the garment’s silhouette in its own colour: no print, listed as not rendered', async () => {
    const blue = near([0x20, 0x50, 0xa0], 30);
    const front = await picture('tshirt-on-white', { angle: 'Front' });
    const back = await picture('tshirt-on-white', { angle: 'Back' });
    expect(box(front, blue).count, 'the print is on the front').toBeGreaterThan(500);
    expect(box(back, blue).count, 'no print on the back').toBe(0);
    const red = (r: number, g: number, b: number) => r > 150 && g < 70 && b < 70;
    expect(box(back, red).count).toBeGreaterThan(box(front, red).count);
    expect(back.notRendered?.some((item) => item.includes('back of the product'))).toBe(true);
  }, SLOW);

  it('one persona is one person-form across angles and items; its words tint the form, the rest is listed', async () => {
    const persona = { description: 'woman, dark skin, red hair, smiling', seed: 11 };
    const head = (image: Pixels) => image.data.subarray(0, Math.floor(image.height * 0.12) * image.width * 3);
    const dressFront = await picture('dress-on-hanger', { angle: 'Front', model: persona });
    const shirtFront = await picture('tshirt-on-white', { angle: 'Front', model: persona });
    const shirtBack = await picture('tshirt-on-white', { angle: 'Back', model: persona });
    expect(head(dressFront).equals(head(shirtFront))).toBe(true);
    expect(head(shirtFront).equals(head(shirtBack))).toBe(true);
    expect(box(dressFront, near([0x7a, 0x4e, 0x33], 10)).count, 'dark skin').toBeGreaterThan(1000);
    expect(box(dressFront, near([0xa8, 0x43, 0x2a], 10)).count, 'red hair').toBeGreaterThan(1000);
    expect(dressFront.notRendered).toEqual(['woman', 'smiling']);
    const fair = await picture('dress-on-hanger', { angle: 'Front', model: { description: 'woman, fair skin, blonde hair', seed: 11 } });
    expect(head(fair).equals(head(dressFront))).toBe(false);
  }, SLOW);

  it('"sitting" seats the form on a stool; "walking" puts it mid-stride', async () => {
    const legs = (image: Pixels) => image.data.subarray(Math.floor(image.height * 0.82) * image.width * 3);
    const standing = await picture('dress-on-hanger', { cameraZoom: 'full-body', model: { description: 'standing model', seed: 1 } });
    const sitting = await picture('dress-on-hanger', { cameraZoom: 'full-body', model: { description: 'sitting model', seed: 1 } });
    const walking = await picture('dress-on-hanger', { cameraZoom: 'full-body', model: { description: 'walking model', seed: 1 } });
    expect(legs(sitting).equals(legs(standing))).toBe(false);
    expect(legs(walking).equals(legs(standing))).toBe(false);
    expect(sitting.notRendered ?? []).toEqual([]);
  }, SLOW);

  it('hangs earrings at the ears, one on each side', async () => {
    const image = await picture('earrings-on-grey');
    const teal = near([0x1f, 0x7a, 0x8c], 25);
    const left = box(image, teal, { x0: 0, y0: 0, x1: image.width / 2, y1: image.height });
    const right = box(image, teal, { x0: image.width / 2, y0: 0, x1: image.width, y1: image.height });
    expect(left.count).toBeGreaterThan(500);
    expect(Math.abs(left.count - right.count) / left.count).toBeLessThan(0.1);
    expect(Math.abs(left.top - right.top)).toBeLessThan(3);
  }, SLOW);
});
