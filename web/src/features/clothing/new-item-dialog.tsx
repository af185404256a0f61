import { ClothingItemName } from '@contracts/api';
import { CLOTHING_NAME_MAX_LENGTH, type ProductType } from '@contracts/catalog';
import { fileNameWithoutExtension, formatFileSize } from '@contracts/upload-rules';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from 'sonner';
import { DialogForm, SourceSwitch, UploadDialog } from '@/components/library/library-dialogs';
import { FieldError, FileField } from '@/components/library/library-fields';
import { useObjectUrl } from '@/lib/uploads';
import { ProductLinkImport, type ProductLinkImage } from '@/components/imports/product-link-import';
import { uploadFailure, useRegisterImportedItem, useUploadClothingItem, type UploadPhase } from './api';
import { refuseFile } from './file-rules';
import { ItemFields } from './item-fields';
import { UploadProgress } from './upload-progress';
import { dismissStaleErrors } from '@/lib/stale-errors';

const SOURCES = [
  ['file', 'Upload a file'],
  ['link', 'Import from a product link'],
] as const;

interface Errors {
  file?: string;
  name?: string;
}

/** New Item: one image, a name (required), its product type and a description (optional); uploaded with a progress bar. */
export function NewItemDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const upload = useUploadClothingItem();
  const register = useRegisterImportedItem();
  const [source, setSource] = useState<'file' | 'link'>('file');
  const [file, setFile] = useState<File>();
  const [imported, setImported] = useState<ProductLinkImage>();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [productType, setProductType] = useState<ProductType>('clothing');
  const [errors, setErrors] = useState<Errors>({});
  const [phase, setPhase] = useState<UploadPhase>();
  const preview = useObjectUrl(file);

  const busy = upload.isPending || register.isPending;
  const reset = () => {
    setSource('file');
    setImported(undefined);
    register.reset();
    setFile(undefined);
    setName('');
    setDescription('');
    setProductType('clothing');
    setErrors({});
    setPhase(undefined);
    upload.reset();
  };
  const changeOpen = (next: boolean) => {
    if (busy) return; // the upload finishes (or fails) before the dialog goes
    if (!next) reset();
    onOpenChange(next);
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const picked = input.files?.[0];
    if (!picked) return;
    const problem = await refuseFile(picked);
    if (problem) {
      input.value = '';
      setFile(undefined);
      setErrors((previous) => ({ ...previous, file: `${problem.title}: ${problem.description}` }));
      return;
    }
    setFile(picked);
    setErrors((previous) => ({ ...previous, file: undefined }));
    if (!name.trim()) setName(fileNameWithoutExtension(picked.name).slice(0, CLOTHING_NAME_MAX_LENGTH));
  };

  const onImported = (image: ProductLinkImage | undefined) => {
    setImported(image);
    if (image) setErrors((previous) => ({ ...previous, file: undefined }));
    if (image && !name.trim()) setName(image.name.slice(0, CLOTHING_NAME_MAX_LENGTH));
  };

  const added = (item: { name: string }) => {
    dismissStaleErrors();
    toast.success('Item added', { description: `“${item.name}” is in your clothing library.` });
    reset();
    onOpenChange(false);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checkedName = ClothingItemName.safeParse(name);
    if (source === 'link') {
      const found: Errors = {
        file: imported ? undefined : 'Please pick an image found on the product page',
        name: checkedName.success ? undefined : checkedName.error.issues[0]?.message,
      };
      setErrors(found);
      if (!imported || !checkedName.success) return;
      register.mutate(
        { imageKey: imported.imageKey, name: checkedName.data, description: description.trim() || null, productType },
        {
          onSuccess: added,
          onError: (error) => {
            const { title, description: detail } = uploadFailure(error);
            toast.error(title, { description: detail });
          },
        },
      );
      return;
    }
    const found: Errors = {
      file: file ? undefined : 'Please select an image to upload',
      name: checkedName.success ? undefined : checkedName.error.issues[0]?.message,
    };
    setErrors(found);
    if (!file || !checkedName.success) return;
    upload.mutate(
      { file, name: checkedName.data, description: description.trim() || null, productType, onPhase: setPhase },
      {
        onSuccess: added,
        onError: (error) => {
          setPhase(undefined);
          const { title, description: detail } = uploadFailure(error);
          toast.error(title, { description: detail });
        },
      },
    );
  };

  return (
    <UploadDialog open={open} onOpenChange={changeOpen} title="New Item" description="Add a product photo to your clothing library.">
      <DialogForm onSubmit={onSubmit} busy={busy} submitLabel={source === 'link' ? 'Add item' : 'Upload'}>
        <SourceSwitch
          label="Image source"
          options={SOURCES}
          value={source}
          disabled={busy}
          onChange={(mode) => {
            setSource(mode);
            setErrors((previous) => ({ ...previous, file: undefined }));
          }}
        />

        {source === 'link' ? (
          <div>
            <ProductLinkImport purpose="clothing" disabled={busy} onImported={onImported} />
            {errors.file && <FieldError>{errors.file}</FieldError>}
          </div>
        ) : (
          <FileField label="Image" hint="JPEG, PNG or WebP, up to 12 MB." onChange={onFile} disabled={busy} error={errors.file} />
        )}

        {source === 'file' && file && preview && (
          <figure className="flex items-center gap-3 rounded-lg border border-slate-200 p-2">
            <img src={preview} alt="Preview of the selected image" className="h-20 w-16 rounded-md object-cover" />
            <figcaption className="min-w-0 text-sm text-slate-700">
              <span className="block break-all font-medium text-slate-900">{file.name}</span>
              {formatFileSize(file.size)}
            </figcaption>
          </figure>
        )}

        <ItemFields
          name={name}
          onNameChange={setName}
          nameError={errors.name}
          description={description}
          productType={productType}
          onProductTypeChange={setProductType}
          onDescriptionChange={setDescription}
          disabled={busy}
          placeholders={{ name: 'e.g. Red summer dress', description: 'Fabric, colour, fit…' }}
        />

        {phase && file && <UploadProgress phase={phase} label={file.name} />}
      </DialogForm>
    </UploadDialog>
  );
}
