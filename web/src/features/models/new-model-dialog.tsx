// New Model: a name and a description (required) and, optionally, a reference portrait — uploaded (the seller confirms
// they hold the rights to the person's likeness) or picked from their finished results.
import { CLOTHING_MAX_BYTES } from '@contracts/catalog';
import { CreateModelRequest, MODEL_MESSAGES } from '@contracts/models';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { DialogForm, SourceSwitch, UploadDialog } from '@/components/library/library-dialogs';
import { FieldError } from '@/components/library/library-fields';
import { ChoiceTile } from '@/components/ui/choice-tile';
import { FileDropZone } from '@/components/ui/file-drop-zone';
import { Spinner } from '@/components/ui/spinner';
import { formatDateTime } from '@/lib/format';
import { useImageResults } from '@/lib/generations';
import { checkPickedImage } from '@/lib/image-check';
import { useObjectUrl } from '@/lib/uploads';
import { isPortraitRefusal, saveFailure, useSaveModel } from './api';
import { fieldErrors } from './field-errors';
import { ModelFields } from './model-fields';

type PortraitMode = 'none' | 'upload' | 'result';
const MODES: readonly (readonly [PortraitMode, string])[] = [
  ['none', 'No portrait'],
  ['upload', 'Upload a portrait'],
  ['result', 'From my results'],
];

export function NewModelDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <UploadDialog open={open} onOpenChange={onOpenChange} title="New Model" description="A person you can use for every photo of your catalogue.">
      <NewModelForm onDone={() => onOpenChange(false)} />
    </UploadDialog>
  );
}

function NewModelForm({ onDone }: { onDone: () => void }) {
  const save = useSaveModel();
  const results = useImageResults();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [mode, setMode] = useState<PortraitMode>('none');
  const [file, setFile] = useState<File>();
  const [rightsConfirmed, setRightsConfirmed] = useState(false);
  const [generationId, setGenerationId] = useState<string>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState<number>();
  const preview = useObjectUrl(file);
  const ids = { file: useId(), rights: useId() };

  const pickFile = async (picked: File | undefined) => {
    if (!picked) return;
    const problem = await checkPickedImage(picked, CLOTHING_MAX_BYTES);
    if (problem) return void toast.error(problem.title, { description: problem.description });
    setFile(picked);
    setErrors(({ imageKey: _refused, ...others }) => others);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const portrait =
      mode === 'upload' && file ? { imageKey: 'pending-upload', rightsConfirmed } : mode === 'result' && generationId ? { generationId } : {};
    const checked = CreateModelRequest.safeParse({ name, description, ...portrait });
    const found = checked.success ? {} : fieldErrors(checked.error.issues);
    if (mode === 'upload' && !file) found.imageKey = 'Please choose a portrait to upload';
    if (mode === 'result' && !generationId) found.generationId = 'Please pick one of your results';
    setErrors(found);
    if (!checked.success || Object.keys(found).length) return;
    const { imageKey: _pending, ...body } = checked.data;
    save.mutate(
      { body, portrait: mode === 'upload' ? file : undefined, onProgress: setProgress },
      {
        onSuccess: (model) => {
          toast.success('Model saved', { description: `“${model.name}” is in your models.` });
          onDone();
        },
        onError: (error) => {
          setProgress(undefined);
          const { title, description: detail } = saveFailure(error);
          // A refused portrait ("No face was found…") stays by the portrait until another one is chosen; the toast
          // alone would be gone in seconds.
          if (isPortraitRefusal(error)) setErrors({ imageKey: detail });
          toast.error(title, { description: detail });
        },
      },
    );
  };

  const busy = save.isPending;
  return (
    <DialogForm onSubmit={onSubmit} busy={busy} submitLabel="Save model">
      <ModelFields name={name} onNameChange={setName} description={description} onDescriptionChange={setDescription} errors={errors} disabled={busy} />

      <fieldset>
        <legend className="mb-1.5 block text-sm font-medium text-slate-800">Reference portrait (optional)</legend>
        <SourceSwitch label="Reference portrait" options={MODES} value={mode} onChange={setMode} disabled={busy} />
      </fieldset>

      {mode === 'upload' && (
        <div className="space-y-3">
          <FileDropZone
            id={ids.file}
            fileName={file?.name}
            previewUrl={preview}
            placeholder="Choose a portrait"
            hint="JPEG, PNG or WebP, up to 12 MB"
            ariaLabel="Upload a portrait"
            onFile={pickFile}
          />
          {errors.imageKey && <FieldError className="mt-0">{errors.imageKey}</FieldError>}
          <label htmlFor={ids.rights} className="flex items-start gap-2 text-sm text-slate-800">
            <input id={ids.rights} type="checkbox" checked={rightsConfirmed} onChange={(event) => setRightsConfirmed(event.target.checked)} className="mt-0.5 h-4 w-4" />
            {MODEL_MESSAGES.rightsLabel}
          </label>
          {errors.rightsConfirmed && <FieldError className="mt-0">{errors.rightsConfirmed}</FieldError>}
          {progress !== undefined && <p className="text-sm text-slate-700">Uploading… {Math.round(progress * 100)}%</p>}
        </div>
      )}

      {mode === 'result' &&
        (results.isPending ? (
          <Spinner label="Loading your results…" />
        ) : !results.data?.length ? (
          <p className="text-sm text-slate-700">No finished images yet.</p>
        ) : (
          <div>
            <div role="radiogroup" aria-label="Your results" className="grid max-h-64 grid-cols-4 gap-2 overflow-y-auto p-1">
              {results.data.map((generation) => (
                <ChoiceTile
                  key={generation.id}
                  selected={generationId === generation.id}
                  label={generation.title}
                  title={`${generation.title} (${formatDateTime(generation.created_at)})`}
                  onClick={() => setGenerationId(generation.id)}
                  className="aspect-[9/16]"
                >
                  <img src={generation.thumbnail_url ?? generation.result_url ?? ''} alt="" className="h-full w-full object-cover" loading="lazy" />
                </ChoiceTile>
              ))}
            </div>
            {errors.generationId && <FieldError>{errors.generationId}</FieldError>}
          </div>
        ))}
    </DialogForm>
  );
}
