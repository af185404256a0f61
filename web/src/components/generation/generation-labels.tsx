import type { Generation, GenerationStatus } from '@contracts/generations';
import { Badge } from '@/components/ui/badge';

const OPERATION_LABELS: Record<Generation['operation'], string> = {
  'on-model': 'Image',
  edit: 'Edit',
  upscale: 'Upscale',
  video: 'Video',
  batch: 'Batch',
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

/** A batch photo's entry: 'Entry 2 · Linen shirt'; undefined for other rows. */
export function batchEntryLabel(generation: Pick<Generation, 'operation' | 'params'>): string | undefined {
  if (generation.operation !== 'batch' || typeof generation.params.entryIndex !== 'number') return undefined;
  const name = typeof generation.params.clothingItemName === 'string' ? ` · ${generation.params.clothingItemName}` : '';
  return `Entry ${generation.params.entryIndex + 1}${name}`;
}

const STATUS: Record<GenerationStatus, { label: string; tone: 'success' | 'danger' | 'warning' }> = {
  complete: { label: 'Complete', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  processing: { label: 'Processing', tone: 'warning' },
};

export function GenerationStatusBadge({ status }: { status: GenerationStatus }) {
  return <Badge tone={STATUS[status].tone}>{STATUS[status].label}</Badge>;
}
