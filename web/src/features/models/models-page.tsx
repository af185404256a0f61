import type { SavedModel } from '@contracts/models';
import { Plus, UserRound } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { LibraryList, LibrarySearch, type LibraryTexts } from '@/components/library/library-list';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useSavedModels } from '@/lib/saved-models';
import { ModelCard, type ModelAction } from './model-card';
import { DeleteModelDialog, EditModelDialog } from './model-dialogs';
import { NewModelDialog } from './new-model-dialog';

type Open = { dialog: 'new' } | { dialog: ModelAction; model: SavedModel } | undefined;

const TEXTS: LibraryTexts = {
  plural: 'models',
  listLabel: 'Models',
  loading: 'Loading models…',
  failed: { title: 'Failed to load models', text: 'Your models could not be loaded right now.' },
  empty: { title: 'No models yet', text: 'Save a model once (a description, and a portrait if you like) and use it for your whole catalogue.' },
  noMatch: { title: 'No models found', text: 'No model matches your search. Try another word.' },
};

/** The models whose name or description contains every word searched for. */
export function matchingModels(models: SavedModel[], search: string): SavedModel[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return models.filter((model) => words.every((word) => `${model.name} ${model.description}`.toLowerCase().includes(word)));
}

/** Models (/studio/models): the seller's saved model personas, used by Image Generation and Batch. */
export default function ModelsPage() {
  const models = useSavedModels();
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<Open>();
  const deferredSearch = useDeferredValue(search);
  const all = useMemo(() => models.data ?? [], [models.data]);
  const shown = useMemo(() => matchingModels(all, deferredSearch), [all, deferredSearch]);
  const close = () => setOpen(undefined);
  const modelFor = (dialog: ModelAction) => (open && 'model' in open && open.dialog === dialog ? open.model : undefined);
  const newButton = (
    <Button onClick={() => setOpen({ dialog: 'new' })}>
      <Plus className="h-4 w-4" aria-hidden="true" /> New Model
    </Button>
  );

  return (
    <div className="space-y-6">
      <PageHeader
        title="Models"
        description="Your AI fashion models: the same person on every product and every angle. Choose one in Image Generation and Batch."
        actions={newButton}
      />

      <div>
        <LibrarySearch value={search} onChange={setSearch} />
      </div>

      <LibraryList
        query={models}
        all={all}
        shown={shown}
        texts={TEXTS}
        Icon={UserRound}
        addActions={newButton}
        countTestId="models-count"
        renderCard={(model) => <ModelCard model={model} onAction={(dialog, target) => setOpen({ dialog, model: target })} />}
      />

      <NewModelDialog open={open?.dialog === 'new'} onOpenChange={(next) => setOpen(next ? { dialog: 'new' } : undefined)} />
      <EditModelDialog model={modelFor('edit')} onClose={close} />
      <DeleteModelDialog model={modelFor('delete')} onClose={close} />
    </div>
  );
}
