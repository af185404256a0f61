import type { SavedModel } from '@contracts/models';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { MoreVertical, Pencil, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { ModelPicture } from '@/components/generation/model-choice';
import { Card } from '@/components/ui/card';
import { formatDate } from '@/lib/format';

export type ModelAction = 'edit' | 'delete';

const itemClass =
  'flex cursor-pointer select-none items-center gap-2 rounded-md px-2 py-2 text-sm text-slate-800 outline-none data-[highlighted]:bg-slate-100 data-[highlighted]:text-slate-900';

const PORTRAIT_NOTES: Record<NonNullable<SavedModel['portrait_source']>, string> = {
  upload: 'Uploaded portrait',
  generation: 'Portrait from a result',
};

export function ModelCard({ model, onAction }: { model: SavedModel; onAction: (action: ModelAction, model: SavedModel) => void }) {
  const titleId = useId();
  return (
    <Card className="flex h-full flex-col overflow-hidden" aria-labelledby={titleId} role="article" data-testid="model-card">
      <ModelPicture model={model} className="aspect-[3/4] w-full" />
      <div className="flex flex-1 items-start gap-2 p-4">
        <div className="min-w-0 flex-1">
          <h3 id={titleId} className="truncate font-semibold text-slate-900" title={model.name}>
            {model.name}
          </h3>
          <p className="mt-1 line-clamp-3 text-sm text-slate-700">{model.description}</p>
          <p className="mt-2 text-xs text-slate-600">
            {formatDate(model.created_at)}
            {model.portrait_source && ` · ${PORTRAIT_NOTES[model.portrait_source]}`}
          </p>
        </div>
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger className="-mr-2 rounded-md p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900" aria-label={`Actions for ${model.name}`}>
            <MoreVertical className="h-4 w-4" aria-hidden="true" />
          </DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content align="end" sideOffset={4} className="z-40 min-w-44 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg">
              <DropdownMenu.Item className={itemClass} onSelect={() => onAction('edit', model)}>
                <Pencil className="h-4 w-4" aria-hidden="true" /> Edit
              </DropdownMenu.Item>
              <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
              <DropdownMenu.Item
                className={`${itemClass} text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800`}
                onSelect={() => onAction('delete', model)}
              >
                <Trash2 className="h-4 w-4" aria-hidden="true" /> Delete
              </DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </div>
    </Card>
  );
}
