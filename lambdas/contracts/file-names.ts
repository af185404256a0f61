// The names files are saved under, as a seller names them: the product, what kind of picture or video it is, and its
// size or marketplace, with the extension of the bytes ("navy-surf-club-tee-amazon-2000.jpg",
// "navy-surf-club-tee-on-model-1440x2560.png", "navy-surf-club-tee-video-720x1280-8s.mp4"). One function serves every
// download: the API's `file_name`, the signed attachment links of videos, the entries of a batch's zip and the web
// app's Download buttons (web/src/lib/downloads.ts).
import { BATCH_PACKSHOT_SHOT } from './catalog.js';
import type { Generation, GenerationParams } from './generations.js';

/** The params field where edits, upscales, packshots and videos record the product they started from. */
export const PRODUCT_NAME_PARAM = 'productName';

/** A file whose product is not known (an uploaded photo) is named after the studio. */
const UNNAMED_PRODUCT = 'modelloop';
const SLUG_MAX_LENGTH = 60;

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
  'application/zip': 'zip',
};

/** Lower-case words joined by hyphens, accents dropped: "Navy Surf Club Tee" → "navy-surf-club-tee". */
export function fileNameSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, '');
}

/** The extension of a content type's bytes ("image/jpeg" → "jpg"). */
export function extensionOf(contentType: string): string {
  return EXTENSIONS[contentType] ?? contentType.split('/').pop()!.replace(/[^a-z0-9]/g, '');
}

/** A square as its side ("2000"), anything else as width×height ("1440x2560"). */
const sizeWords = ({ width, height }: { width: number; height: number }) => (width === height ? `${width}` : `${width}x${height}`);

export interface DownloadNameParts {
  /** The product's name as the seller gave it (a library item's name); absent for an uploaded photo. */
  product?: string | undefined;
  /** What the file is: "on-model", "front", "edited", "upscaled", "video" … or a packshot's marketplace. */
  kind: string;
  /** Further words, in order ("2" for a job's second video). */
  details?: readonly string[];
  size?: { width: number; height: number } | undefined;
  /** After the size ("8s" for a video's duration). */
  suffix?: string;
  contentType: string;
}

export function downloadFileName(parts: DownloadNameParts): string {
  const words = [
    fileNameSlug(parts.product ?? '') || UNNAMED_PRODUCT,
    fileNameSlug(parts.kind),
    ...(parts.details ?? []).map(fileNameSlug),
    parts.size ? sizeWords(parts.size) : '',
    parts.suffix ? fileNameSlug(parts.suffix) : '',
  ].filter((word) => word !== '');
  return `${words.join('-')}.${extensionOf(parts.contentType)}`;
}

/** The product a generation's row recorded: its library item's name, or the product of the picture it started from. */
export function productNameOf(params: GenerationParams): string | undefined {
  for (const value of [params[PRODUCT_NAME_PARAM], params.clothingItemName]) if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return undefined;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** What kind of file a generation's result is, as its name says it. */
function kindOf(generation: Pick<Generation, 'operation' | 'params'>): { kind: string; details?: string[] } {
  const { params } = generation;
  switch (generation.operation) {
    case 'on-model':
      return { kind: 'on-model' };
    case 'batch':
      // A batch's packshot is named by its marketplace, as the Packshot tool's are; a photo by its camera angle.
      return params.cameraAngle === BATCH_PACKSHOT_SHOT ? { kind: text(params.marketplace) || 'packshot' } : { kind: text(params.cameraAngle) || 'photo' };
    case 'packshot':
      return { kind: text(params.marketplace) || 'packshot' };
    case 'edit':
      return { kind: 'edited' };
    case 'upscale':
      return { kind: 'upscaled' };
    case 'video':
      return { kind: 'video', ...(Number(params.output_count) > 1 ? { details: [String(params.output)] } : {}) };
  }
}

/** The file name of a generation's result: product, kind, size (and a video's duration), the extension of its bytes. */
export function generationFileName(
  generation: Pick<Generation, 'operation' | 'params' | 'width' | 'height' | 'result_content_type'>,
): string {
  const size = generation.width && generation.height ? { width: generation.width, height: generation.height } : undefined;
  const duration = generation.operation === 'video' && typeof generation.params.duration === 'number' ? `${generation.params.duration}s` : undefined;
  return downloadFileName({
    product: productNameOf(generation.params),
    ...kindOf(generation),
    size,
    ...(duration ? { suffix: duration } : {}),
    contentType: generation.result_content_type ?? 'image/png',
  });
}

/**
 * The file name of a video job's `index`th output (0-based): the same name its History row downloads under.
 */
export function videoFileName(
  job: { product_name?: string | null; duration: number; output_count: number },
  output: { index: number; width: number; height: number },
): string {
  return generationFileName({
    operation: 'video',
    params: { ...(job.product_name ? { [PRODUCT_NAME_PARAM]: job.product_name } : {}), duration: job.duration, output_count: job.output_count, output: output.index + 1 },
    width: output.width,
    height: output.height,
    result_content_type: 'video/mp4',
  });
}

/** The names made unique, in order: a repeated name gets "-2", "-3" … before its extension. */
export function uniqueFileNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let copy = 2; taken.has(candidate); copy++) candidate = `${stem}-${copy}${extension}`;
    taken.add(candidate);
    return candidate;
  });
}
