// The card menu's dialogs: Edit (rename, describe anew; the seed and portrait stay) and Delete (a confirm prompt).
import { UpdateModelRequest, type SavedModel } from '@contracts/models';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ConfirmDeleteDialog, DialogForm, EntryDialog } from '@/components/library/library-dialogs';
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
    <EntryDialog
      entry={model}
      onClose={onClose}
      title={() => 'Edit model'}
      description={() => 'Rename the model or change its description. Its seed and portrait stay, so it stays the same person.'}
    >
      {(entry) => <EditModelForm key={entry.id} model={entry} onDone={onClose} />}
    </EntryDialog>
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
    <DialogForm onSubmit={onSubmit} busy={update.isPending} submitLabel="Save changes">
      <ModelFields name={name} onNameChange={setName} description={description} onDescriptionChange={setDescription} errors={errors} />
    </DialogForm>
  );
}

export function DeleteModelDialog({ model, onClose }: ModelDialogProps) {
  const remove = useDeleteModel();
  const onConfirm = (target: SavedModel) =>
    remove.mutate(target.id, {
      onSuccess: () => {
        toast.success('Model deleted', { description: `“${target.name}” was removed from your models.` });
        onClose();
      },
      onError: () => toast.error('Error', { description: 'Failed to delete model' }),
    });
  return (
    <ConfirmDeleteDialog
      entry={model}
      onClose={onClose}
      title="Delete this model?"
      description={(target) => `“${target.name}” and its uploaded portrait will be deleted. Pictures made with it stay in your history.`}
      deleting={remove.isPending}
      onConfirm={onConfirm}
    />
  );
}
