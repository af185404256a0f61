// New Model: a name and a description (required) and, optionally, a reference portrait — uploaded (the seller confirms
// they hold the rights to the person's likeness) or picked from their finished results.
import { CLOTHING_MAX_BYTES } from '@contracts/catalog';
import { CreateModelRequest, MODEL_MESSAGES } from '@contracts/models';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ChoiceTile } from '@/components/ui/choice-tile';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { FileDropZone } from '@/components/ui/file-drop-zone';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { useImageResults } from '@/lib/generations';
import { checkPickedImage } from '@/lib/image-check';
import { useObjectUrl } from '@/lib/uploads';
import { saveFailure, useSaveModel } from './api';
import { fieldErrors } from './field-errors';
import { ModelFields } from './model-fields';

type PortraitMode = 'none' | 'upload' | 'result';
const MODES: [PortraitMode, string][] = [
  ['none', 'No portrait'],
  ['upload', 'Upload a portrait'],
  ['result', 'From my results'],
];

export function NewModelDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <DialogContent title="New Model" description="A person you can use for every photo of your catalogue." className="max-h-[90vh] overflow-y-auto">
          <NewModelForm onDone={() => onOpenChange(false)} />
        </DialogContent>
      )}
    </Dialog>
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
          toast.error(title, { description: detail });
        },
      },
    );
  };

  const busy = save.isPending;
  return (
    <form className="mt-5 space-y-4" onSubmit={onSubmit} noValidate aria-busy={busy}>
      <ModelFields name={name} onNameChange={setName} description={description} onDescriptionChange={setDescription} errors={errors} disabled={busy} />

      <fieldset>
        <legend className="mb-1.5 block text-sm font-medium text-slate-800">Reference portrait (optional)</legend>
        <div className="inline-flex flex-wrap rounded-lg bg-slate-100 p-1 text-sm" role="group" aria-label="Reference portrait">
          {MODES.map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={mode === value}
              disabled={busy}
              onClick={() => setMode(value)}
              className={cn('rounded-md px-3 py-1.5 font-medium', mode === value ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900')}
            >
              {label}
            </button>
          ))}
        </div>
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
          {errors.imageKey && (
            <p role="alert" className="text-sm text-red-700">
              {errors.imageKey}
            </p>
          )}
          <label htmlFor={ids.rights} className="flex items-start gap-2 text-sm text-slate-800">
            <input id={ids.rights} type="checkbox" checked={rightsConfirmed} onChange={(event) => setRightsConfirmed(event.target.checked)} className="mt-0.5 h-4 w-4" />
            {MODEL_MESSAGES.rightsLabel}
          </label>
          {errors.rightsConfirmed && (
            <p role="alert" className="text-sm text-red-700">
              {errors.rightsConfirmed}
            </p>
          )}
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
                  label={`Result from ${formatDateTime(generation.created_at)}`}
                  onClick={() => setGenerationId(generation.id)}
                  className="aspect-[9/16]"
                >
                  <img src={generation.thumbnail_url ?? generation.result_url ?? ''} alt="" className="h-full w-full object-cover" loading="lazy" />
                </ChoiceTile>
              ))}
            </div>
            {errors.generationId && (
              <p role="alert" className="mt-1.5 text-sm text-red-700">
                {errors.generationId}
              </p>
            )}
          </div>
        ))}

      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <DialogClose asChild>
          <Button variant="outline" disabled={busy}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" busy={busy}>
          Save model
        </Button>
      </div>
    </form>
  );
}
