import { ClothingItemName } from '@contracts/api';
import { CLOTHING_DESCRIPTION_MAX_LENGTH, CLOTHING_NAME_MAX_LENGTH } from '@contracts/catalog';
import { fileNameWithoutExtension, formatFileSize } from '@contracts/upload-rules';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { Input, Label, Textarea } from '@/components/ui/field';
import { IMAGE_ACCEPT, useObjectUrl } from '@/lib/uploads';
import { uploadFailure, useUploadClothingItem, type UploadPhase } from './api';
import { refuseFile } from './file-rules';
import { UploadProgress } from './upload-progress';

interface Errors {
  file?: string;
  name?: string;
}

/** New Item: one image, a name (required) and a description (optional); uploaded with a progress bar. */
export function NewItemDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const upload = useUploadClothingItem();
  const [file, setFile] = useState<File>();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [phase, setPhase] = useState<UploadPhase>();
  const preview = useObjectUrl(file);
  const ids = { file: useId(), fileError: useId(), name: useId(), nameError: useId(), description: useId() };

  const reset = () => {
    setFile(undefined);
    setName('');
    setDescription('');
    setErrors({});
    setPhase(undefined);
    upload.reset();
  };
  const changeOpen = (next: boolean) => {
    if (upload.isPending) return; // the upload finishes (or fails) before the dialog goes
    if (!next) reset();
    onOpenChange(next);
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    if (!picked) return;
    const problem = refuseFile(picked);
    if (problem) {
      event.target.value = '';
      setFile(undefined);
      setErrors((previous) => ({ ...previous, file: `${problem.title}: ${problem.description}` }));
      return;
    }
    setFile(picked);
    setErrors((previous) => ({ ...previous, file: undefined }));
    if (!name.trim()) setName(fileNameWithoutExtension(picked.name).slice(0, CLOTHING_NAME_MAX_LENGTH));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checkedName = ClothingItemName.safeParse(name);
    const found: Errors = {
      file: file ? undefined : 'Please select an image to upload',
      name: checkedName.success ? undefined : checkedName.error.issues[0]?.message,
    };
    setErrors(found);
    if (!file || !checkedName.success) return;
    upload.mutate(
      { file, name: checkedName.data, description: description.trim() || null, onPhase: setPhase },
      {
        onSuccess: (item) => {
          toast.success('Item added', { description: `“${item.name}” is in your clothing library.` });
          reset();
          onOpenChange(false);
        },
        onError: (error) => {
          setPhase(undefined);
          const { title, description: detail } = uploadFailure(error);
          toast.error(title, { description: detail });
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent title="New Item" description="Add a product photo to your clothing library." className="max-h-[90vh] overflow-y-auto">
        <form className="mt-5 space-y-4" onSubmit={onSubmit} noValidate aria-busy={upload.isPending}>
          <div>
            <Label htmlFor={ids.file}>Image</Label>
            <input
              id={ids.file}
              type="file"
              accept={IMAGE_ACCEPT}
              onChange={onFile}
              disabled={upload.isPending}
              aria-invalid={errors.file ? true : undefined}
              aria-describedby={errors.file ? ids.fileError : undefined}
              className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:py-2 file:text-sm file:font-medium file:text-brand-700 hover:file:bg-brand-100"
            />
            <p className="mt-1 text-xs text-slate-600">JPEG, PNG or WebP, up to 12 MB.</p>
            {errors.file && (
              <p id={ids.fileError} role="alert" className="mt-1.5 text-sm text-red-700">
                {errors.file}
              </p>
            )}
          </div>

          {file && preview && (
            <figure className="flex items-center gap-3 rounded-lg border border-slate-200 p-2">
              <img src={preview} alt="Preview of the selected image" className="h-20 w-16 rounded-md object-cover" />
              <figcaption className="min-w-0 text-sm text-slate-700">
                <span className="block truncate font-medium text-slate-900">{file.name}</span>
                {formatFileSize(file.size)}
              </figcaption>
            </figure>
          )}

          <div>
            <Label htmlFor={ids.name}>Name</Label>
            <Input
              id={ids.name}
              value={name}
              onChange={(event) => setName(event.target.value)}
              maxLength={CLOTHING_NAME_MAX_LENGTH}
              required
              disabled={upload.isPending}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? ids.nameError : undefined}
              placeholder="e.g. Red summer dress"
            />
            {errors.name && (
              <p id={ids.nameError} role="alert" className="mt-1.5 text-sm text-red-700">
                {errors.name}
              </p>
            )}
          </div>

          <div>
            <Label htmlFor={ids.description}>
              Description <span className="font-normal text-slate-600">(optional)</span>
            </Label>
            <Textarea
              id={ids.description}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
              maxLength={CLOTHING_DESCRIPTION_MAX_LENGTH}
              disabled={upload.isPending}
              placeholder="Fabric, colour, fit…"
            />
          </div>

          {phase && file && <UploadProgress phase={phase} label={file.name} />}

          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="outline" disabled={upload.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" busy={upload.isPending}>
              Upload
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
