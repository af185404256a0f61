import { isPreviewModel, PREVIEW_EXPLANATION, type ResultEngine } from '@contracts/preview';
import type { Generation } from '@contracts/generations';
import { Badge } from '@/components/ui/badge';
import { paths } from '@/lib/paths';

/** "Preview" on every result the preview engine made (no AI model); nothing for a provider's result. */
export function PreviewBadge({ aiModel }: { aiModel: string }) {
  if (!isPreviewModel(aiModel)) return null;
  return (
    <Badge tone="warning" data-testid="preview-badge" title={PREVIEW_EXPLANATION}>
      Preview
    </Badge>
  );
}

/**
 * Under a preview result: the one sentence that says what it is, with the providers guide, and what the request asked
 * for that the engine could not render.
 */
export function PreviewNote({ generation }: { generation: Pick<Generation, 'ai_model' | 'not_rendered'> }) {
  if (!isPreviewModel(generation.ai_model)) return null;
  return (
    <div data-testid="preview-note" className="space-y-1 text-sm text-slate-700">
      <p>
        {PREVIEW_EXPLANATION}{' '}
        <a className="font-medium text-brand-700 underline" href={paths.providersGuide} target="_blank" rel="noreferrer">
          How to connect a provider
        </a>
      </p>
      {generation.not_rendered?.length ? (
        <p data-testid="not-rendered" className="break-words text-slate-600">
          Not rendered by the preview engine: {generation.not_rendered.join(', ')}.
        </p>
      ) : null}
    </div>
  );
}

/** Under a video (or any result the API answers with its `engine`): what made it, in the same sentence as images. */
export function EngineNote({ engine }: { engine: ResultEngine | null | undefined }) {
  if (!engine) return null;
  if (!engine.preview) {
    return (
      <p data-testid="engine-note" className="text-sm text-slate-700">
        {engine.note}
      </p>
    );
  }
  return (
    <p data-testid="engine-note" className="text-sm text-slate-700">
      <Badge tone="warning" className="mr-1.5">
        {engine.name}
      </Badge>
      {engine.note}{' '}
      <a className="font-medium text-brand-700 underline" href={paths.providersGuide} target="_blank" rel="noreferrer">
        How to connect a provider
      </a>
    </p>
  );
}
