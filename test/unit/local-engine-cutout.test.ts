// The preview engine's cutout on real product pictures (test/fixtures/products, each with a hand-made mask): the
// product is kept, its background, shadow and hanger hook are not.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { cutOutProduct, productAlpha, productAlphaFor } from '../../lambdas/providers/local-engine/cutout.js';
import { decodeRgba } from '../../lambdas/providers/local-engine/raster.js';
import { PRODUCT_FIXTURES, productFixture, readProductFixture } from '../fixtures/products/catalog.js';
import { cutoutIoU, pictureIoU } from '../fixtures/products/iou.js';
import { maskedPhotographicFixture, PHOTOGRAPHIC_FIXTURES, photographicFixture, readPhotographicFixture } from '../fixtures/photographic/catalog.js';
import { readVerifiedModel, segmentForeground, SEGMENTATION_MODEL } from '../../lambdas/providers/local-engine/segmentation.js';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const SLOW = 60_000;

describe('cutout against hand-made masks', () => {
  it('agrees with the masks: mean IoU at least 0.98, every picture at least 0.95', async () => {
    const scores: Record<string, number> = {};
    for (const fixture of PRODUCT_FIXTURES) scores[fixture.name] = (await cutoutIoU(fixture)).iou;
    const mean = Object.values(scores).reduce((sum, iou) => sum + iou, 0) / PRODUCT_FIXTURES.length;
    expect(PRODUCT_FIXTURES.length).toBeGreaterThanOrEqual(12);
    expect(mean, JSON.stringify(scores)).toBeGreaterThanOrEqual(0.98);
    for (const [name, iou] of Object.entries(scores)) expect(iou, name).toBeGreaterThanOrEqual(0.95);
  }, SLOW);

  it("drops a hanger's hook: the cut garment starts where the dress does", async () => {
    const { photo } = await readProductFixture(productFixture('dress-on-hanger'));
    const { product } = await cutOutProduct(await decodeRgba(photo), 'clothing');
    // The dress spans y 90–420 of the picture; the hook reaches up to y 58.
    expect(product.height).toBeLessThanOrEqual(420 - 90 + 3);
    expect(product.height).toBeGreaterThanOrEqual(420 - 90 - 3);
  });

  it("drops a hanger's bar: nothing of it shows beside the shoulders, on either hanger", async () => {
    for (const name of ['dress-on-hanger', 'shirt-on-hanger-grey-wall']) {
      const fixture = productFixture(name);
      const { photo, mask } = await readProductFixture(fixture);
      const image = await decodeRgba(photo);
      const truth = await decodeRgba(mask);
      const alpha = productAlpha(image, 'clothing');
      // The bar runs behind the shoulders (y ≈ 85–130) and its ends stick out past them: kept pixels there that the
      // hand-made mask calls background are the bar's ends (the feathered edge gives at most a few per row).
      let hanger = 0;
      let garment = 0;
      for (let y = 80; y < 135; y++) {
        for (let x = 0; x < image.width; x++) {
          const p = y * image.width + x;
          if (alpha[p]! < 128) continue;
          if (truth.data[p * 4]! < 128) hanger++;
          else garment++;
        }
      }
      expect(hanger, `${name}: pixels of the bar kept`).toBeLessThanOrEqual(12);
      expect(garment, `${name}: the shoulders are kept`).toBeGreaterThan(3000);
    }
  });

  it("drops the product's own shadow: the studio sweater is cut at its hem", async () => {
    const { photo } = await readProductFixture(productFixture('sweater-studio-shadow'));
    const { product } = await cutOutProduct(await decodeRgba(photo), 'clothing');
    // Sweater 30–330 wide and 60–390 tall; its shadow lies below, to y ≈ 430.
    expect(product.height).toBeLessThanOrEqual(390 - 60 + 3);
    expect(product.width).toBeLessThanOrEqual(330 - 30 + 3);
  });

  it('feathers the edge: alpha steps through partial values where the product meets the background', async () => {
    const { photo } = await readProductFixture(productFixture('dress-on-hanger'));
    const { product } = await cutOutProduct(await decodeRgba(photo), 'clothing');
    let partial = 0;
    for (let i = 3; i < product.data.length; i += 4) if (product.data[i]! > 0 && product.data[i]! < 255) partial++;
    expect(partial).toBeGreaterThan(200);
  });
});

describe('cutout on products photographed against real backgrounds (test/fixtures/photographic)', () => {
  it('keeps the garment and not the grass, wood, sky or water behind it: every clothing picture at least 0.98, mean at least 0.99', async () => {
    const clothing = PHOTOGRAPHIC_FIXTURES.filter((fixture) => fixture.product.productType === 'clothing');
    const scores: Record<string, number> = {};
    for (const fixture of clothing) scores[fixture.name] = (await pictureIoU(await maskedPhotographicFixture(fixture))).iou;
    const mean = Object.values(scores).reduce((sum, iou) => sum + iou, 0) / clothing.length;
    expect(clothing.length).toBeGreaterThanOrEqual(8);
    expect(mean, JSON.stringify(scores)).toBeGreaterThanOrEqual(0.99);
    for (const [name, iou] of Object.entries(scores)) expect(iou, name).toBeGreaterThanOrEqual(0.98);
  }, SLOW);

  it('jewelry on a busy photograph: better than colour distance or the network alone, mean IoU at least 0.85', async () => {
    const scores: Record<string, number> = {};
    for (const fixture of PHOTOGRAPHIC_FIXTURES.filter((candidate) => candidate.product.productType === 'jewelry')) {
      const picture = await maskedPhotographicFixture(fixture);
      const chosen = (await pictureIoU(picture, 'chosen')).iou;
      expect(chosen, fixture.name).toBeGreaterThanOrEqual((await pictureIoU(picture, 'colour')).iou);
      expect(chosen, fixture.name).toBeGreaterThanOrEqual((await pictureIoU(picture, 'network')).iou);
      scores[fixture.name] = chosen;
    }
    const values = Object.values(scores);
    expect(values.reduce((sum, iou) => sum + iou, 0) / values.length, JSON.stringify(scores)).toBeGreaterThanOrEqual(0.85);
  }, SLOW);

  it('finds a necklace\'s chain that the network does not see at all, on a leaf with water drops', async () => {
    const picture = await maskedPhotographicFixture(photographicFixture('necklace-on-velvet-on-raindrops'));
    expect((await pictureIoU(picture, 'network')).iou, 'the network finds only the pendant').toBeLessThan(0.5);
    expect((await pictureIoU(picture, 'chosen')).iou).toBeGreaterThanOrEqual(0.85);
  }, SLOW);

  it('cuts a large photograph out at the refinement\'s scale and gives its mask at the full size', async () => {
    const picture = await maskedPhotographicFixture(photographicFixture('tshirt-on-white-on-greenmeadow'));
    const enlarge = (bytes: Buffer, kernel: 'lanczos3' | 'nearest') => sharp(bytes).resize({ width: 1440, kernel }).png().toBuffer();
    const large = { ...picture, photo: await enlarge(picture.photo, 'lanczos3'), mask: await enlarge(picture.mask, 'nearest') };
    expect((await pictureIoU(large, 'chosen')).iou).toBeGreaterThanOrEqual(0.98);
  }, SLOW);

  it("leaves a bangle's inside out, though the network fills it", async () => {
    const { photo } = await readPhotographicFixture(photographicFixture('bangle-studio-on-yellowflower'));
    const image = await decodeRgba(photo);
    const { alpha } = await productAlphaFor(image, 'jewelry');
    const centre = Math.floor(image.height / 2) * image.width + Math.floor(image.width / 2);
    expect((await segmentForeground(image))[centre], 'the network calls the inside product').toBeGreaterThan(128);
    expect(alpha[centre], 'the cutout does not').toBe(0);
  }, SLOW);

  it('a busy background is cut out by the network, and the confetti of the photograph does not come along', async () => {
    const { photo } = await readPhotographicFixture(photographicFixture('tshirt-on-white-on-greenmeadow'));
    const cutout = await cutOutProduct(await decodeRgba(photo), 'clothing');
    expect(cutout.method).toBe('network');
    // The T-shirt is 288 wide and 378 tall in the 360×440 picture (scale 0.6 of 480×580, from y 12).
    expect(cutout.product.width).toBeLessThanOrEqual(288 + 8);
    expect(cutout.product.height).toBeLessThanOrEqual(378 + 8);
  }, SLOW);

  it('refuses weights whose checksum is not the measured one', async () => {
    const path = createRequire(import.meta.url).resolve(SEGMENTATION_MODEL.file);
    expect((await readVerifiedModel(path)).length).toBe(SEGMENTATION_MODEL.bytes);
    const changed = join(await mkdtemp(join(tmpdir(), 'u2netp-')), 'u2netp.onnx');
    await writeFile(changed, Buffer.concat([await readVerifiedModel(path), Buffer.from([0])]));
    await expect(readVerifiedModel(changed)).rejects.toThrow(/SHA-256/);
  });
});
