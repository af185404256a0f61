import type { Generation, GenerationStatus } from '@contracts/generations';
import { modelDisplayName } from '@contracts/preview';
import { CANCELLED_BY_USER } from '@contracts/video-failures';
import { Badge } from '@/components/ui/badge';

const OPERATION_LABELS: Record<Generation['operation'], string> = {
  'on-model': 'Image',
  edit: 'Edit',
  upscale: 'Upscale',
  video: 'Video',
  batch: 'Batch',
  packshot: 'Packshot',
};

/** The row's type as people read it: the generation type, and for images what made them. */
export function generationTypeLabel(generation: Pick<Generation, 'generation_type' | 'operation' | 'params'>): string {
  const label = OPERATION_LABELS[generation.operation];
  if (generation.operation === 'batch' && typeof generation.params.cameraAngle === 'string') {
    return `${label} · ${generation.params.cameraAngle}`;
  }
  if (generation.operation === 'upscale' && typeof generation.params.targetResolution === 'string') {
    return `${label} ${generation.params.targetResolution.toUpperCase()}`;
  }
  return label;
}

/**
 * The picture's shape: its ratio and pixel size once made ('1:1 · 1024×1024'), the ratio asked for while it is being
 * made; undefined for a row with neither (a video's history row, an edit still processing).
 */
export function resultShapeLabel(generation: Pick<Generation, 'width' | 'height' | 'params'>): string | undefined {
  const { width, height } = generation;
  if (width && height) {
    const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
    const divisor = gcd(width, height);
    const [a, b] = [width / divisor, height / divisor];
    // A ratio with large terms (an edit of an odd-sized upload) is shown by its size alone.
    return a <= 64 && b <= 64 ? `${a}:${b} · ${width}×${height}` : `${width}×${height}`;
  }
  return typeof generation.params.aspectRatio === 'string' ? generation.params.aspectRatio : undefined;
}

/** A batch photo's entry: 'Entry 2 · Linen shirt'; undefined for other rows. */
export function batchEntryLabel(generation: Pick<Generation, 'operation' | 'params'>): string | undefined {
  if (generation.operation !== 'batch' || typeof generation.params.entryIndex !== 'number') return undefined;
  const name = typeof generation.params.clothingItemName === 'string' ? ` · ${generation.params.clothingItemName}` : '';
  return `Entry ${generation.params.entryIndex + 1}${name}`;
}

const STATUS: Record<GenerationStatus | 'cancelled', { label: string; tone: 'success' | 'danger' | 'warning' | 'neutral' }> = {
  complete: { label: 'Complete', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  processing: { label: 'Processing', tone: 'warning' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
};

/** A row's status; a video the seller cancelled (stored as failed with CANCELLED_BY_USER) is Cancelled, not Failed. */
export function GenerationStatusBadge({ status, errorMessage }: { status: GenerationStatus; errorMessage?: string | null }) {
  const shown = status === 'failed' && errorMessage === CANCELLED_BY_USER ? 'cancelled' : status;
  return <Badge tone={STATUS[shown].tone}>{STATUS[shown].label}</Badge>;
}

/** One display name per model (shared with the API's `engine` answers). */
export { modelDisplayName };

const PRODUCT_LABELS: Record<Generation['operation'], string> = {
  'on-model': 'Image generation',
  edit: 'Edit',
  upscale: 'Upscale',
  video: 'Video generation',
  batch: 'Batch',
  packshot: 'Packshot',
};

/** Which product (screen) a row came from, and the clothing item it was made from when that is known. */
export function productLabel(generation: Pick<Generation, 'operation' | 'params'>, itemName?: string): string {
  const name = itemName ?? (typeof generation.params.clothingItemName === 'string' ? generation.params.clothingItemName : undefined);
  return name ? `${PRODUCT_LABELS[generation.operation]} · ${name}` : PRODUCT_LABELS[generation.operation];
}

/** Credits of a row: what it cost, or "Refunded" (net 0) when a failed row gave its credits back. */
export function GenerationCredits({ generation }: { generation: Pick<Generation, 'credits_used' | 'credits_refunded'> }) {
  const refunded = Math.min(generation.credits_refunded, generation.credits_used);
  if (refunded > 0) {
    const net = generation.credits_used - refunded;
    return (
      <span data-testid="generation-credits" className="text-slate-900">
        {net}{' '}
        <span className="text-xs font-medium text-amber-800">
          ({refunded} refunded)
        </span>
      </span>
    );
  }
  return (
    <span data-testid="generation-credits" className="text-slate-900">
      {generation.credits_used}
    </span>
  );
}
