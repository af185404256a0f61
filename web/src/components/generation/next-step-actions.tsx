import type { Generation } from '@contracts/generations';
import { ArrowUpRight, Layers, Maximize2, Pencil, Video } from 'lucide-react';
import { Link } from 'react-router-dom';
import { cn } from '@/lib/cn';
import { NEXT_STEP_PATHS, sourceParam } from '@/lib/next-step';
import { SaveModelAction } from './save-model-action';

/** What a finished image leads to, each screen opened with it chosen (also History's row menu). */
export const NEXT_STEPS = [
  { path: NEXT_STEP_PATHS.edit, label: 'Edit', Icon: Pencil },
  { path: NEXT_STEP_PATHS.upscale, label: 'Upscale', Icon: Maximize2 },
  { path: NEXT_STEP_PATHS.video, label: 'Make a video', Icon: Video },
  { path: NEXT_STEP_PATHS.batch, label: 'Add to batch', Icon: Layers },
] as const;

/**
 * What a finished image leads to: each opens that screen with this image already chosen. Nothing for a video or an
 * unfinished generation.
 */
/** Whether a row is a finished image that the next steps take. */
export const leadsOn = (generation: Pick<Generation, 'status' | 'result_content_type'>) =>
  generation.status === 'complete' && Boolean(generation.result_content_type?.startsWith('image/'));

export function NextStepActions({ generation, compact = false }: { generation: Generation; compact?: boolean }) {
  if (!leadsOn(generation)) return null;
  const query = sourceParam({ kind: 'generation', id: generation.id });
  return (
    <nav aria-label="Next steps" className={cn('flex flex-wrap gap-2', compact ? 'justify-end' : 'justify-center')}>
      {NEXT_STEPS.map(({ path, label, Icon }) => (
        <Link
          key={path}
          to={`${path}?${query}`}
          className={cn(
            'inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600',
            compact ? 'px-2 py-1 text-xs' : 'px-3 py-1.5 text-sm',
          )}
        >
          <Icon className="h-4 w-4" aria-hidden="true" /> {label}
          {!compact && <ArrowUpRight className="h-3 w-3 text-slate-500" aria-hidden="true" />}
        </Link>
      ))}
      <SaveModelAction generation={generation} compact={compact} />
    </nav>
  );
}
