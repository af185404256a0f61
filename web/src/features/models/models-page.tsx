import type { SavedModel } from '@contracts/models';
import { Plus, Search, UserRound } from 'lucide-react';
import { useDeferredValue, useId, useMemo, useState, type ReactNode } from 'react';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input, Label } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { useSavedModels } from '@/lib/saved-models';
import { ModelCard, type ModelAction } from './model-card';
import { DeleteModelDialog, EditModelDialog } from './model-dialogs';
import { NewModelDialog } from './new-model-dialog';

type Open = { dialog: 'new' } | { dialog: ModelAction; model: SavedModel } | undefined;

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
  const searchId = useId();
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
        <Label htmlFor={searchId}>Search</Label>
        <div className="relative">
          <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
          <Input id={searchId} type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Search by name or description" className="pl-9" />
        </div>
      </div>

      <p className="text-sm text-slate-700" aria-live="polite" data-testid="models-count">
        {models.data ? `Showing ${shown.length} of ${all.length} models` : '\u00a0'}
      </p>

      {models.isPending ? (
        <div className="flex justify-center py-16 text-brand-600">
          <Spinner className="h-8 w-8" label="Loading models…" />
        </div>
      ) : models.isError ? (
        <EmptyState title="Failed to load models" text="Your models could not be loaded right now.">
          <Button variant="outline" onClick={() => void models.refetch()} busy={models.isFetching}>
            Try again
          </Button>
        </EmptyState>
      ) : all.length === 0 ? (
        <EmptyState title="No models yet" text="Save a model once (a description, and a portrait if you like) and use it for your whole catalogue.">
          {newButton}
        </EmptyState>
      ) : shown.length === 0 ? (
        <EmptyState title="No models found" text="No model matches your search. Try another word." />
      ) : (
        <ul aria-label="Models" className="grid grid-cols-2 gap-3 sm:gap-5 lg:grid-cols-3 xl:grid-cols-4">
          {shown.map((model) => (
            <li key={model.id}>
              <ModelCard model={model} onAction={(dialog, target) => setOpen({ dialog, model: target })} />
            </li>
          ))}
        </ul>
      )}

      <NewModelDialog open={open?.dialog === 'new'} onOpenChange={(next) => setOpen(next ? { dialog: 'new' } : undefined)} />
      <EditModelDialog model={modelFor('edit')} onClose={close} />
      <DeleteModelDialog model={modelFor('delete')} onClose={close} />
    </div>
  );
}

function EmptyState({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  return (
    <Card className="flex flex-col items-center gap-3 px-6 py-16 text-center">
      <span className="flex h-14 w-14 items-center justify-center rounded-full bg-brand-50">
        <UserRound className="h-7 w-7 text-brand-600" aria-hidden="true" />
      </span>
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      <p className="max-w-md text-slate-700">{text}</p>
      {children && <div className="mt-2 flex flex-wrap justify-center gap-2">{children}</div>}
    </Card>
  );
}
