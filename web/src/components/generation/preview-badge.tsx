import { isPreviewModel, PREVIEW_EXPLANATION, resultNotes, type ResultEngine } from '@contracts/preview';
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

/** On a provider's result: what it could not honour of the request (e.g. an enrichment the text model declined). */
export function ResultNotes({ generation, className = 'block text-xs text-amber-800' }: { generation: Pick<Generation, 'ai_model' | 'not_rendered'>; className?: string }) {
  const notes = resultNotes(generation);
  if (notes.length === 0) return null;
  return (
    <>
      {notes.map((note) => (
        <span key={note} data-testid="result-note" className={className}>
          {note}
        </span>
      ))}
    </>
  );
}

/**
 * Under a preview result: the one sentence that says what it is, with the providers guide, and what the request asked
 * for that the engine could not render.
 */
export function PreviewNote({ generation }: { generation: Pick<Generation, 'ai_model' | 'not_rendered'> }) {
  if (!isPreviewModel(generation.ai_model)) return <ResultNotes generation={generation} className="block text-sm text-amber-800" />;
  return (
    <div data-testid="preview-note" className="space-y-1 text-sm text-slate-700">
      <p>
        {PREVIEW_EXPLANATION}{' '}
        <a className="font-medium text-brand-700 underline" href={paths.providersGuide} target="_blank" rel="noreferrer">
          How to connect a provider
        </a>
      </p>
      <NotRenderedNote items={generation.not_rendered} />
    </div>
  );
}

/** What a request asked for that the preview engine did not (or will not) render, as every result lists it. */
export function NotRenderedNote({ items }: { items: readonly string[] | undefined }) {
  if (!items?.length) return null;
  return (
    <p data-testid="not-rendered" className="break-words text-slate-600">
      Not rendered by the preview engine: {items.join(', ')}.
    </p>
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
