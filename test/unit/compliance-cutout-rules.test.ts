// The compliance report notices a bad cutout (issue #48): each rule of a packshot's cutout fails a packshot that breaks
// it and passes a clean one, and a packshot failing one is marked for review (never a clean pass). The packshots are
// real renders of the photographic fixtures, cut out by the engine or by a mask the test draws (the seller's brush).
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PACKSHOT_PRESETS, type ComplianceReport } from '../../lambdas/contracts/marketplace.js';
import { complianceReport } from '../../lambdas/domain/marketplace/compliance.js';
import { renderPackshot, type PackshotOptions } from '../../lambdas/domain/marketplace/packshot.js';
import { cutOutProduct } from '../../lambdas/providers/local-engine/cutout.js';
import { decodeRgba } from '../../lambdas/providers/local-engine/raster.js';
import { photographicFixture, readPhotographicFixture, sellerSizedPhotographicFixture } from '../fixtures/photographic/catalog.js';

const SLOW = 180_000;

async function amazonReport(photo: Buffer, options: PackshotOptions): Promise<ComplianceReport> {
  const shot = await renderPackshot(photo, PACKSHOT_PRESETS.amazon, options);
  return complianceReport(shot.bytes, shot.cutout);
}

function rule(report: ComplianceReport, id: string) {
  const found = report.marketplaces.find((market) => market.marketplace === 'amazon')!.rules.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no rule ${id} in ${JSON.stringify(report.marketplaces[0]!.rules.map((r) => r.id))}`);
  return found;
}
const amazonPass = (report: ComplianceReport) => report.marketplaces.find((market) => market.marketplace === 'amazon')!.pass;

describe('the report of a packshot checks its cutout', () => {
  it('one product, nothing else: a stray piece of background on the ground fails Amazon and asks for review; the clean cut passes', async () => {
    const { photo, mask } = await sellerSizedPhotographicFixture('tshirt-on-white-on-greenmeadow');
    const clean = await amazonReport(photo, { productType: 'clothing', mask });
    expect(rule(clean, 'one-product').pass, JSON.stringify(rule(clean, 'one-product'))).toBe(true);
    expect(clean.review).toBe(false);
    expect(amazonPass(clean), JSON.stringify(clean.marketplaces[0]!.rules)).toBe(true);

    // The same mask with a piece of the meadow kept beside the T-shirt (bottom-left corner, under its hem).
    const { width, height } = (await sharp(mask).metadata()) as { width: number; height: number };
    const stray = await sharp(mask)
      .composite([{ input: { create: { width: 90, height: 90, channels: 3, background: '#ffffff' } }, left: 10, top: height - 100 }])
      .png()
      .toBuffer();
    expect(width).toBe(1440);
    const bad = await amazonReport(photo, { productType: 'clothing', mask: stray });
    expect(rule(bad, 'one-product').pass).toBe(false);
    expect(rule(bad, 'one-product').measured as number).toBeGreaterThan(0.005);
    expect(amazonPass(bad)).toBe(false);
    expect(bad.review).toBe(true);
  }, SLOW);

  it("the cutout's confidence: a jewel whose outline the network was unsure of asks for review; a garment it was sure of passes", async () => {
    const sure = await amazonReport((await sellerSizedPhotographicFixture('tshirt-on-white-on-greenmeadow')).photo, { productType: 'clothing' });
    expect(rule(sure, 'cutout-confidence').pass, JSON.stringify(rule(sure, 'cutout-confidence'))).toBe(true);
    expect(sure.review).toBe(false);

    const unsure = await amazonReport((await sellerSizedPhotographicFixture('earrings-on-grey-on-twowings')).photo, { productType: 'jewelry' });
    expect(rule(unsure, 'cutout-confidence').measured as number).toBeGreaterThan(0.5);
    expect(rule(unsure, 'cutout-confidence').pass).toBe(false);
    expect(unsure.review).toBe(true);
    expect(unsure.marketplaces.every((market) => !market.pass)).toBe(true);
  }, SLOW);

  it('a product was found: a speck of a kite in a wide sky asks for review; a product that fills its photo passes', async () => {
    const sky = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200"><defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1">' +
          '<stop offset="0" stop-color="#2f63b8"/><stop offset="1" stop-color="#a9cdf0"/></linearGradient></defs>' +
          '<rect width="1600" height="1200" fill="url(#s)"/>' +
          '<path d="M1100 300 L1118 318 L1100 346 L1082 318 Z" fill="#e0322a"/></svg>',
      ),
    )
      .jpeg({ quality: 90 })
      .toBuffer();
    const kite = await amazonReport(sky, { productType: 'clothing' });
    expect(rule(kite, 'product-found').measured as number).toBeLessThan(0.01);
    expect(rule(kite, 'product-found').pass).toBe(false);
    expect(kite.review).toBe(true);

    const shirt = await amazonReport((await sellerSizedPhotographicFixture('tshirt-on-white-on-greenmeadow')).photo, { productType: 'clothing' });
    expect(rule(shirt, 'product-found').pass).toBe(true);
  }, SLOW);

  it('enlarged at most ×3: a product of a few hundred pixels blown up to the frame asks for review; a seller-sized photo passes', async () => {
    const { photo } = await readPhotographicFixture(photographicFixture('tshirt-on-white-on-greenmeadow'));
    // 360×440: the T-shirt is 378 px tall, drawn 1800 px tall in Amazon's frame (×4.8).
    const small = await amazonReport(photo, { productType: 'clothing' });
    expect(rule(small, 'enlargement').measured as number).toBeGreaterThan(3);
    expect(rule(small, 'enlargement').pass).toBe(false);
    expect(small.review).toBe(true);

    const large = await amazonReport((await sellerSizedPhotographicFixture('tshirt-on-white-on-greenmeadow')).photo, { productType: 'clothing' });
    expect(rule(large, 'enlargement').measured as number).toBeLessThanOrEqual(3);
    expect(rule(large, 'enlargement').pass).toBe(true);
  }, SLOW);
});

describe('a cutout that finds nothing says what it found', () => {
  it('"No product found" only when the network and the colour cut both find nothing', async () => {
    const plain = await decodeRgba(await sharp({ create: { width: 400, height: 300, channels: 3, background: '#d8d4cc' } }).png().toBuffer());
    await expect(cutOutProduct(plain, 'clothing')).rejects.toThrow('No product found: neither the segmentation network nor the colour cut found a product in this photo.');
  }, SLOW);

  it('a speck is named with its size, not called "no product"', async () => {
    const speck = await decodeRgba(
      await sharp({ create: { width: 400, height: 300, channels: 3, background: '#ffffff' } })
        .composite([{ input: { create: { width: 6, height: 5, channels: 3, background: '#1a1a1a' } }, left: 200, top: 150 }])
        .png()
        .toBuffer(),
    );
    await expect(cutOutProduct(speck, 'clothing')).rejects.toThrow(/found only a 6×5 px piece of this 400×300 photo \(by colour\): too small/);
  }, SLOW);
});
