// POST /generate-packshot as a generation draft: what it records, costs (the `packshot` tier) and starts from.
import type * as z from 'zod';
import type { GenerationStarted } from '../../contracts/generations.js';
import { MARKETPLACE_NAMES, PACKSHOT_ENGINE } from '../../contracts/marketplace.js';
import { packshotFrameOf, type PackshotRequest } from '../../contracts/packshots.js';
import { clothingItemSource, ownImageSource, placed, productParam } from '../images/source.js';
import { submitGeneration } from '../generation/service.js';
import { derivedTitle, packshotName, UPLOADED_PHOTO_TITLE } from '../generation/titles.js';
import type { SpendingRequest } from '../spending.js';

type Packshot = z.output<typeof PackshotRequest>;

export async function generatePackshot(spending: SpendingRequest, body: Packshot): Promise<GenerationStarted> {
  const frame = packshotFrameOf(body);
  const source =
    body.clothingItemId !== undefined ? await clothingItemSource(spending.userId, body.clothingItemId) : await ownImageSource(spending.userId, body.imageUrl!);
  const name = body.marketplace === 'custom' ? 'Custom' : MARKETPLACE_NAMES[body.marketplace];
  const size = `${frame.width}×${frame.height}`;
  return submitGeneration(spending, {
    generationType: 'image',
    operation: 'packshot',
    aiModel: PACKSHOT_ENGINE,
    tier: 'packshot',
    description: `Packshot (${name}, ${size})`,
    params: {
      marketplace: body.marketplace,
      productType: body.productType,
      width: frame.width,
      height: frame.height,
      fill: frame.fill,
      background: frame.background,
      format: frame.format,
      shadow: body.shadow,
      clothingItemId: body.clothingItemId ?? null,
      imageUrl: body.imageUrl ?? null,
      ...productParam(source),
    },
    source: placed(source),
    // What the pickers call it: the product (the item's name, or the name of the picture it was made from), then
    // the marketplace by name and the size ("Navy tee · Packshot for Amazon main image · 2000×2000").
    title: derivedTitle(source.title ?? UPLOADED_PHOTO_TITLE, `${packshotName(body.marketplace)} · ${size}`),
  });
}
