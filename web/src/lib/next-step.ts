// How one screen hands a chosen image to the next: `?source=generation:<id>` (one of the caller's finished images) or
// `?source=clothing:<id>` (a library item). The target screen reads it and preselects that image.
import { useSearchParams } from 'react-router-dom';
import { paths } from './paths';

export type ChosenSource = { kind: 'generation'; id: string } | { kind: 'clothing'; id: string };

export const SOURCE_PARAM = 'source';
/** Batch Generation opened on one batch (its progress, its photos, Retry failed): `?batch=<id>`. */
export const BATCH_PARAM = 'batch';

export const NEXT_STEP_PATHS = {
  edit: paths.edit,
  upscale: paths.upscale,
  video: paths.videoGeneration,
  batch: paths.batchGeneration,
} as const;

export function sourceParam(source: ChosenSource): string {
  return `${SOURCE_PARAM}=${encodeURIComponent(`${source.kind}:${source.id}`)}`;
}

export function parseSource(value: string | null): ChosenSource | undefined {
  const match = /^(generation|clothing):([A-Za-z0-9_-]{1,80})$/.exec(value ?? '');
  return match ? { kind: match[1] as ChosenSource['kind'], id: match[2]! } : undefined;
}

/** The image this screen was opened with, if any. */
export function useChosenSource(): ChosenSource | undefined {
  const [params] = useSearchParams();
  return parseSource(params.get(SOURCE_PARAM));
}
