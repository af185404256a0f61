// The card menu's dialogs: Edit (rename, describe anew; the seed and portrait stay) and Delete (a confirm prompt).
import { UpdateModelRequest, type SavedModel } from '@contracts/models';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { useDeleteModel, useUpdateModel } from './api';
import { ModelFields } from './model-fields';
import { fieldErrors } from './field-errors';

interface ModelDialogProps {
  /** The model the dialog is about; none: closed. */
  model: SavedModel | undefined;
  onClose: () => void;
}

export function EditModelDialog({ model, onClose }: ModelDialogProps) {
  return (
    <Dialog open={model !== undefined} onOpenChange={(open) => !open && onClose()}>
      {model && (
        <DialogContent title="Edit model" description="Rename the model or change its description. Its seed and portrait stay, so it stays the same person.">
          <EditModelForm key={model.id} model={model} onDone={onClose} />
        </DialogContent>
      )}
    </Dialog>
  );
}

function EditModelForm({ model, onDone }: { model: SavedModel; onDone: () => void }) {
  const update = useUpdateModel();
  const [name, setName] = useState(model.name);
  const [description, setDescription] = useState(model.description);
  const [errors, setErrors] = useState<{ name?: string; description?: string }>({});

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = UpdateModelRequest.safeParse({ name, description });
    if (!checked.success) return setErrors(fieldErrors(checked.error.issues));
    setErrors({});
    update.mutate(
      { id: model.id, changes: checked.data },
      {
        onSuccess: (saved) => {
          toast.success('Model updated', { description: `“${saved.name}” was saved.` });
          onDone();
        },
        onError: (error) => toast.error('Error', { description: error.message }),
      },
    );
  };

  return (
    <form className="mt-5 space-y-4" onSubmit={onSubmit} noValidate>
      <ModelFields name={name} onNameChange={setName} description={description} onDescriptionChange={setDescription} errors={errors} />
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" busy={update.isPending}>
          Save changes
        </Button>
      </div>
    </form>
  );
}

export function DeleteModelDialog({ model, onClose }: ModelDialogProps) {
  const remove = useDeleteModel();
  const onConfirm = () => {
    if (!model) return;
    remove.mutate(model.id, {
      onSuccess: () => {
        toast.success('Model deleted', { description: `“${model.name}” was removed from your models.` });
        onClose();
      },
      onError: () => toast.error('Error', { description: 'Failed to delete model' }),
    });
  };
  return (
    <Dialog open={model !== undefined} onOpenChange={(open) => !open && !remove.isPending && onClose()}>
      {model && (
        <DialogContent
          role="alertdialog"
          title="Delete this model?"
          description={`“${model.name}” and its uploaded portrait will be deleted. Pictures made with it stay in your history.`}
        >
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="outline" disabled={remove.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button variant="destructive" busy={remove.isPending} onClick={onConfirm}>
              Delete
            </Button>
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
