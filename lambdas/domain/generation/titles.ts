// What a picture is called where a seller picks one (the Edit, Upscale and Video pickers): its product, its saved
// model and its size ("Blue Logo Tee · Maya · 2K 9:16"), then what was done to it ("… · Edited", "… · Upscaled to
// 4K", "… · Packshot for Amazon main image · 2000×2000"). Edits, upscales and packshots inherit their source's name
// when they are made; rows stored without a name get one from what they recorded.
import { MARKETPLACE_NAMES, type Marketplace } from '../../contracts/marketplace.js';
import type { GenerationRecord } from '../../data/generations-repo.js';

const SEPARATOR = ' · ';
const OPERATION_NAMES: Record<GenerationRecord['operation'], string> = {
  'on-model': 'Image',
  edit: 'Edit',
  upscale: 'Upscale',
  video: 'Video',
  batch: 'Batch photo',
  packshot: 'Packshot',
};
/** A product photo that is no library item (an upload, an inline image, a picked import). */
export const UPLOADED_PHOTO_TITLE = 'Uploaded photo';

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const join = (parts: ReadonlyArray<string | undefined>) => parts.filter((part): part is string => part !== undefined).join(SEPARATOR);

/** A recorded marketplace preset ('amazon', 'custom'), or undefined when none is recorded. */
function marketplaceOf(value: unknown): Marketplace | 'custom' | undefined {
  const preset = text(value);
  if (preset === undefined) return undefined;
  return Object.hasOwn(MARKETPLACE_NAMES, preset) ? (preset as Marketplace) : 'custom';
}

/** The name a row gets from what it recorded: product, model, (camera angle,) size and ratio for on-model pictures. */
export function recordedTitle(record: Pick<GenerationRecord, 'operation' | 'params' | 'model' | 'width' | 'height' | 'title'>): string {
  if (record.title) return record.title;
  const { params } = record;
  if (record.operation === 'on-model' || record.operation === 'batch') {
    const product = text(params.clothingItemName) ?? (params.clothingItemId ? OPERATION_NAMES[record.operation] : UPLOADED_PHOTO_TITLE);
    const size = text(params.imageSize);
    // A batch's packshot is its marketplace's frame, not the batch's size and ratio.
    const packshotOf = record.operation === 'batch' ? marketplaceOf(params.marketplace) : undefined;
    const shape = packshotOf
      ? join([packshotOf === 'custom' ? undefined : MARKETPLACE_NAMES[packshotOf], `${String(params.width)}×${String(params.height)}`])
      : size && `${size.toUpperCase()} ${text(params.aspectRatio) ?? '9:16'}`;
    return join([product, record.model?.name, record.operation === 'batch' ? text(params.cameraAngle) : undefined, shape]);
  }
  if (record.operation === 'packshot') {
    // A row stored before packshots recorded their title: the marketplace by its name, and the size it was made at.
    return join([
      text(params.clothingItemName),
      packshotName(marketplaceOf(params.marketplace) ?? 'custom'),
      record.width && record.height ? `${record.width}×${record.height}` : undefined,
    ]);
  }
  return join([OPERATION_NAMES[record.operation], record.width && record.height ? `${record.width}×${record.height}` : undefined]);
}

/** What a packshot is called after its product: "Packshot for Amazon main image", or "Packshot" for a custom frame. */
export function packshotName(marketplace: Marketplace | 'custom'): string {
  return marketplace === 'custom' ? OPERATION_NAMES.packshot : `${OPERATION_NAMES.packshot} for ${MARKETPLACE_NAMES[marketplace]}`;
}

/** An edit's, an upscale's or a packshot's name: its source's, and what was done ("Edited", "Upscaled to 4K"). */
export function derivedTitle(sourceTitle: string, done: string): string {
  // A picture edited again is still "… · Edited", not "… · Edited · Edited".
  return sourceTitle.endsWith(`${SEPARATOR}${done}`) ? sourceTitle : join([sourceTitle, done]);
}
