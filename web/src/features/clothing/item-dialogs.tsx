// The card menu's dialogs: View Details (with what the item leads to: an image, a video, a batch entry), Edit (rename,
// product type, description) and Delete (a confirm prompt).
import { ClothingItemName, type ClothingItem } from '@contracts/api';
import type { ProductType } from '@contracts/catalog';
import { formatFileSize } from '@contracts/upload-rules';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Layers, Sparkles, Video } from 'lucide-react';
import { ConfirmDeleteDialog, DialogForm, EntryDialog } from '@/components/library/library-dialogs';
import { ButtonLink } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { NEXT_STEP_PATHS, sourceParam } from '@/lib/next-step';
import { paths } from '@/lib/paths';
import { PRODUCT_LABELS } from '@/lib/product-types';
import { useDeleteClothingItem, useUpdateClothingItem } from './api';
import { ItemImage, usedTimes } from './clothing-card';
import { ItemFields } from './item-fields';

interface ItemDialogProps {
  /** The item the dialog is about; none: closed. */
  item: ClothingItem | undefined;
  onClose: () => void;
}

const TYPE_NAMES: Record<ClothingItem['mime_type'], string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP' };

/** What a library item leads to: each screen opens with the item already chosen. */
const ITEM_STEPS = [
  { path: paths.imageGeneration, label: 'Make an image', Icon: Sparkles },
  { path: NEXT_STEP_PATHS.video, label: 'Make a video', Icon: Video },
  { path: NEXT_STEP_PATHS.batch, label: 'Add to batch', Icon: Layers },
] as const;

export function ItemDetailsDialog({ item, onClose }: ItemDialogProps) {
  return (
    <EntryDialog
      entry={item}
      onClose={onClose}
      title={(entry) => entry.name}
      description={(entry) => entry.description ?? undefined}
      className="max-h-[90vh] max-w-2xl overflow-y-auto"
    >
      {(entry) => (
        <>
          <div className="mt-5 grid gap-5 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
            <ItemImage item={entry} original className="aspect-[3/4] w-full rounded-lg" />
            <dl className="grid content-start gap-3 text-sm">
              {[
                ['Product type', PRODUCT_LABELS[entry.product_type]],
                ['Uploaded', formatDateTime(entry.created_at)],
                ['File', `${TYPE_NAMES[entry.mime_type]} · ${formatFileSize(entry.file_size_bytes)}`],
                ['Generations', usedTimes(entry.generations_count)],
              ].map(([term, value]) => (
                <div key={term}>
                  <dt className="text-slate-600">{term}</dt>
                  <dd className="font-medium text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </div>
          <nav aria-label="Use this item" className="mt-5 flex flex-wrap gap-2">
            {ITEM_STEPS.map(({ path, label, Icon }) => (
              <ButtonLink key={label} to={`${path}?${sourceParam({ kind: 'clothing', id: entry.id })}`} variant="outline" size="sm">
                <Icon className="h-4 w-4" aria-hidden="true" /> {label}
              </ButtonLink>
            ))}
          </nav>
        </>
      )}
    </EntryDialog>
  );
}

export function EditItemDialog({ item, onClose }: ItemDialogProps) {
  return (
    <EntryDialog entry={item} onClose={onClose} title={() => 'Edit item'} description={() => 'Rename the item or change its product type or description.'}>
      {/* Keyed by item, so the form starts from the item's current values each time. */}
      {(entry) => <EditItemForm key={entry.id} item={entry} onDone={onClose} />}
    </EntryDialog>
  );
}

function EditItemForm({ item, onDone }: { item: ClothingItem; onDone: () => void }) {
  const update = useUpdateClothingItem();
  const [name, setName] = useState(item.name);
  const [description, setDescription] = useState(item.description ?? '');
  const [productType, setProductType] = useState<ProductType>(item.product_type);
  const [nameError, setNameError] = useState<string>();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = ClothingItemName.safeParse(name);
    if (!checked.success) return setNameError(checked.error.issues[0]?.message);
    setNameError(undefined);
    update.mutate(
      { id: item.id, changes: { name: checked.data, description: description.trim() || null, productType } },
      {
        onSuccess: (saved) => {
          toast.success('Item updated', { description: `“${saved.name}” was saved.` });
          onDone();
        },
        onError: (error) => toast.error('Error', { description: error.message }),
      },
    );
  };

  return (
    <DialogForm onSubmit={onSubmit} busy={update.isPending} submitLabel="Save changes">
      <ItemFields
        name={name}
        onNameChange={setName}
        nameError={nameError}
        description={description}
        onDescriptionChange={setDescription}
        productType={productType}
        onProductTypeChange={setProductType}
        autoFocus
      />
    </DialogForm>
  );
}

export function DeleteItemDialog({ item, onClose }: ItemDialogProps) {
  const remove = useDeleteClothingItem();
  const onConfirm = (target: ClothingItem) =>
    remove.mutate(target.id, {
      onSuccess: () => {
        toast.success('Item deleted', { description: `“${target.name}” was removed from your clothing library.` });
        onClose();
      },
      onError: () => toast.error('Error', { description: 'Failed to delete item' }),
    });
  return (
    <ConfirmDeleteDialog
      entry={item}
      onClose={onClose}
      title="Delete this item?"
      description={(target) => `“${target.name}” will be removed from your clothing library. Generations you made from it stay in your history.`}
      deleting={remove.isPending}
      onConfirm={onConfirm}
    />
  );
}
