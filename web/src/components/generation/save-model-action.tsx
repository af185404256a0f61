// "Save this model" on a finished on-model picture: a saved model made from the result (its picture as the portrait)
// and its description, so the same person can wear the rest of the catalogue.
import type { Generation } from '@contracts/generations';
import { CreateModelRequest } from '@contracts/models';
import { UserRoundPlus } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { Input, Label, Textarea } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import { useCreateModel } from '@/lib/saved-models';

/** Only pictures that show a model: on-model images and batch photos. */
export const showsAModel = (generation: Generation) => generation.operation === 'on-model' || generation.operation === 'batch';

export function SaveModelAction({ generation, compact = false }: { generation: Generation; compact?: boolean }) {
  const [open, setOpen] = useState(false);
  if (!showsAModel(generation)) return null;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className={cn(
          'inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600',
          compact ? 'px-2 py-1 text-xs' : 'px-3 py-1.5 text-sm',
        )}
      >
        <UserRoundPlus className="h-4 w-4" aria-hidden="true" /> Save this model
      </button>
      {open && (
        <DialogContent title="Save this model" description="The person in this picture, saved with its description: use it for every photo of your catalogue.">
          <SaveModelForm generation={generation} onDone={() => setOpen(false)} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function SaveModelForm({ generation, onDone }: { generation: Generation; onDone: () => void }) {
  const create = useCreateModel();
  const [name, setName] = useState(generation.model?.name ? `${generation.model.name} (copy)` : '');
  const [description, setDescription] = useState(typeof generation.params.prompt === 'string' ? generation.params.prompt : '');
  const [error, setError] = useState<string>();
  const ids = { name: useId(), description: useId() };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = CreateModelRequest.safeParse({ name, description, generationId: generation.id });
    if (!checked.success) return setError(checked.error.issues[0]?.message);
    setError(undefined);
    create.mutate(checked.data, {
      onSuccess: (model) => {
        toast.success('Model saved', { description: `“${model.name}” is in your models.` });
        onDone();
      },
      onError: (failure) => toast.error('Error', { description: failure.message }),
    });
  };

  return (
    <form className="mt-5 space-y-4" onSubmit={onSubmit} noValidate>
      <div>
        <Label htmlFor={ids.name}>Name</Label>
        <Input id={ids.name} value={name} onChange={(event) => setName(event.target.value)} placeholder="e.g. Maya" autoFocus />
      </div>
      <div>
        <Label htmlFor={ids.description}>Model description</Label>
        <Textarea id={ids.description} value={description} onChange={(event) => setDescription(event.target.value)} />
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" busy={create.isPending}>
          Save model
        </Button>
      </div>
    </form>
  );
}
