// Packshots and the compliance report (issue #42): a product on a busy photograph becomes an Amazon main image that
// passes Amazon's measurable rules; the preview engine's on-model picture of the same product fails them, with the
// reasons; every file made carries IPTC DigitalSourceType in its XMP.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_SIZES } from '../../lambdas/contracts/catalog.js';
import { PACKSHOT_PRESETS } from '../../lambdas/contracts/marketplace.js';
import { readDigitalSourceType, withDigitalSourceType } from '../../lambdas/domain/images/provenance.js';
import { complianceReport } from '../../lambdas/domain/marketplace/compliance.js';
import { digitalSourceTypeOf } from '../../lambdas/domain/generation/work.js';
import { renderPackshot } from '../../lambdas/domain/marketplace/packshot.js';
import { localOnModelImage } from '../../lambdas/providers/local-engine/on-model-image.js';
import { seedOfDescription } from '../../lambdas/providers/ports.js';
import { photographicFixture, readPhotographicFixture } from '../fixtures/photographic/catalog.js';
import { offWhiteBorderPixels } from '../support/pictures.js';

const SLOW = 120_000;
const BUSY = 'tshirt-on-white-on-greenmeadow';

async function busyPhoto(): Promise<Buffer> {
  return (await readPhotographicFixture(photographicFixture(BUSY))).photo;
}

describe('packshot for Amazon from a product on a busy photograph', () => {
  it('is a JPEG of the preset size with every border pixel 255,255,255, the product filling ≥ 85 %, provenance in XMP, and the report passes', async () => {
    const shot = await renderPackshot(await busyPhoto(), PACKSHOT_PRESETS.amazon, { productType: 'clothing', shadow: true });
    const meta = await sharp(shot.bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.space).toBe('srgb');
    expect([meta.width, meta.height]).toEqual([PACKSHOT_PRESETS.amazon.width, PACKSHOT_PRESETS.amazon.height]);
    expect(Math.max(meta.width!, meta.height!)).toBeGreaterThanOrEqual(1000);
    expect(shot.model).toBe('packshot-engine:u2-net-p');

    expect(await offWhiteBorderPixels(shot.bytes)).toBe(0);

    expect(await readDigitalSourceType(shot.bytes)).toBe('compositeSynthetic');
    const amazon = (await complianceReport(shot.bytes)).marketplaces.find((entry) => entry.marketplace === 'amazon')!;
    expect(amazon.rules.find((rule) => rule.id === 'fill')!.measured as number).toBeGreaterThanOrEqual(0.85);
    expect(amazon.pass, JSON.stringify(amazon.rules)).toBe(true);
  }, SLOW);

  it('the same product as a preview on-model picture fails Amazon: not a white background, and the preview mark', async () => {
    const description = 'young female model';
    const output = await localOnModelImage.generate({
      product: { bytes: await busyPhoto(), mimeType: 'image/jpeg' },
      productType: 'clothing',
      model: { description, seed: seedOfDescription(description) },
      cameraZoom: 'auto',
      size: IMAGE_SIZES['1k'],
      aspectRatio: '9:16',
      promptEnhance: false,
    });
    const amazon = (await complianceReport(output.bytes)).marketplaces.find((entry) => entry.marketplace === 'amazon')!;
    expect(amazon.pass).toBe(false);
    const failed = amazon.rules.filter((rule) => !rule.pass).map((rule) => rule.id);
    expect(failed).toContain('white-background');
    expect(failed).toContain('no-watermark');
  }, SLOW);

  it('follows each preset: Zalando upright 1:1.44 JPEG, a custom PNG on a chosen colour', async () => {
    const zalando = await renderPackshot(await busyPhoto(), PACKSHOT_PRESETS.zalando, { productType: 'clothing' });
    const meta = await sharp(zalando.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1801, 2600]);
    expect((await complianceReport(zalando.bytes)).marketplaces.find((entry) => entry.marketplace === 'zalando')!.pass).toBe(true);

    const custom = await renderPackshot(await busyPhoto(), { width: 800, height: 600, fill: 0.7, background: '#f0e6d2', format: 'png' }, { productType: 'clothing' });
    const corner = await sharp(custom.bytes).extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
    expect([...corner.subarray(0, 3)]).toEqual([0xf0, 0xe6, 0xd2]);
    expect(await readDigitalSourceType(custom.bytes)).toBe('compositeSynthetic');
  }, SLOW);
});

describe('provenance in XMP', () => {
  it('is written into PNG, JPEG and WebP without touching the pixels, and replaced rather than doubled', async () => {
    for (const format of ['png', 'jpeg', 'webp'] as const) {
      const original = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#3366cc' } })[format]().toBuffer();
      const stamped = await withDigitalSourceType(original, `image/${format}`, 'trainedAlgorithmicMedia', 'test');
      expect(await readDigitalSourceType(original)).toBeNull();
      expect(await readDigitalSourceType(stamped), format).toBe('trainedAlgorithmicMedia');
      const restamped = await withDigitalSourceType(stamped, `image/${format}`, 'algorithmicallyEnhanced', 'test');
      expect(await readDigitalSourceType(restamped), format).toBe('algorithmicallyEnhanced');
      expect((restamped.toString('latin1').match(/DigitalSourceType=/g) ?? []).length, format).toBe(1);
      expect(await sharp(restamped).raw().toBuffer(), format).toEqual(await sharp(original).raw().toBuffer());
    }
  });

  it('names each result by the IPTC term that fits what made it', () => {
    expect(digitalSourceTypeOf('on-model', 'fashn:tryon-v1.6')).toBe('trainedAlgorithmicMedia');
    expect(digitalSourceTypeOf('batch', 'gemini-2.5-flash-image')).toBe('trainedAlgorithmicMedia');
    expect(digitalSourceTypeOf('edit', 'bedrock:stability.stable-image-search-replace')).toBe('compositeWithTrainedAlgorithmicMedia');
    expect(digitalSourceTypeOf('on-model', 'preview-engine')).toBe('compositeSynthetic');
    expect(digitalSourceTypeOf('edit', 'preview-engine')).toBe('compositeSynthetic');
    expect(digitalSourceTypeOf('packshot', 'packshot-engine:u2-net-p')).toBe('compositeSynthetic');
    expect(digitalSourceTypeOf('upscale', 'preview-engine:esrgan-slim')).toBe('algorithmicallyEnhanced');
  });
});
