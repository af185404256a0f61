import type { SavedModel } from '@contracts/models';
import { Pencil, Trash2 } from 'lucide-react';
import { ModelPicture } from '@/components/generation/model-choice';
import { LibraryCard } from '@/components/library/library-card';
import { formatDate } from '@/lib/format';

export type ModelAction = 'edit' | 'delete';

const PORTRAIT_NOTES: Record<NonNullable<SavedModel['portrait_source']>, string> = {
  upload: 'Uploaded portrait',
  generation: 'Portrait from a result',
};

export function ModelCard({ model, onAction }: { model: SavedModel; onAction: (action: ModelAction, model: SavedModel) => void }) {
  return (
    <LibraryCard
      testId="model-card"
      name={model.name}
      picture={<ModelPicture model={model} className="aspect-[3/4] w-full" />}
      description={
        <>
          <p className="mt-1 line-clamp-3 text-sm text-slate-700">{model.description}</p>
          {model.portrait_missing && (
            <p role="status" className="mt-1 text-sm font-medium text-amber-800">
              Portrait missing: photos can't keep this face until the model gets a new portrait.
            </p>
          )}
        </>
      }
      meta={
        <>
          {formatDate(model.created_at)}
          {model.portrait_source && ` · ${PORTRAIT_NOTES[model.portrait_source]}`}
        </>
      }
      actions={[
        { label: 'Edit', Icon: Pencil, onSelect: () => onAction('edit', model) },
        { label: 'Delete', Icon: Trash2, onSelect: () => onAction('delete', model), destructive: true },
      ]}
    />
  );
}
