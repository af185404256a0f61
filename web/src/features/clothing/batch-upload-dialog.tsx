import { CLOTHING_BATCH_MAX_FILES, CLOTHING_NAME_MAX_LENGTH, type ProductType } from '@contracts/catalog';
import { fileNameWithoutExtension, formatFileSize } from '@contracts/upload-rules';
import { CheckCircle2, XCircle } from 'lucide-react';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { toast } from 'sonner';
import { DialogForm, UploadDialog } from '@/components/library/library-dialogs';
import { FileField } from '@/components/library/library-fields';
import { ProductTypeSelect } from '@/components/product-type-select';
import { uploadClothingItem, uploadFailure, useRefreshClothing, type UploadPhase } from './api';
import { refuseFile } from './file-rules';
import { UploadProgress } from './upload-progress';
import { dismissStaleErrors } from '@/lib/stale-errors';
import { plural } from '@contracts/plural';

/** The specification's message, then what was done about it: the first images taken, the others named. */
const tooMany = (leftOut: readonly string[]) =>
  `You can upload a maximum of ${CLOTHING_BATCH_MAX_FILES} images at once. The first ${CLOTHING_BATCH_MAX_FILES} are selected; ` +
  `${leftOut.join(', ')} ${leftOut.length === 1 ? 'was' : 'were'} left out.`;
const NONE_SELECTED = 'Please select at least one image to upload';

type Status = { state: 'ready' } | { state: 'sending'; phase: UploadPhase } | { state: 'done' } | { state: 'failed'; message: string };

interface Entry {
  key: string;
  file: File;
  /** The item name: the file name without its extension. */
  name: string;
  status: Status;
}

const itemName = (file: File) => fileNameWithoutExtension(file.name).slice(0, CLOTHING_NAME_MAX_LENGTH) || 'Untitled item';

/** Batch Upload: up to 3 images at once, each named after its file, each with its own progress. */
export function BatchUploadDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const refresh = useRefreshClothing();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [refused, setRefused] = useState<string[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [productType, setProductType] = useState<ProductType>('clothing');

  const reset = () => {
    setEntries([]);
    setRefused([]);
    setError(undefined);
    setProductType('clothing');
  };
  const changeOpen = (next: boolean) => {
    if (busy) return;
    if (!next) reset();
    onOpenChange(next);
  };
  const setStatus = (key: string, status: Status) =>
    setEntries((current) => current.map((entry) => (entry.key === key ? { ...entry, status } : entry)));

  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])];
    reset();
    // More than the limit: the first ones are taken, and the message says which were left out and why.
    const files = picked.slice(0, CLOTHING_BATCH_MAX_FILES);
    const left = picked.slice(CLOTHING_BATCH_MAX_FILES);
    if (left.length > 0) {
      const message = tooMany(left.map((file) => file.name));
      setError(message);
      toast.error('Error', { description: message });
    }
    const problems = await Promise.all(files.map((file) => refuseFile(file, true)));
    const accepted = files.filter((file, index) => {
      const problem = problems[index];
      if (problem) setRefused((current) => [...current, `${file.name}: ${problem.title}. ${problem.description}`]);
      return !problem;
    });
    setEntries(accepted.map((file, index) => ({ key: `${index}:${file.name}`, file, name: itemName(file), status: { state: 'ready' } })));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const pending = entries.filter((entry) => entry.status.state !== 'done');
    if (pending.length === 0) {
      setError(NONE_SELECTED);
      toast.error('Error', { description: NONE_SELECTED });
      return;
    }
    setError(undefined);
    setBusy(true);
    const results = await Promise.allSettled(
      pending.map(async (entry) => {
        setStatus(entry.key, { state: 'sending', phase: { step: 'uploading', fraction: 0 } });
        try {
          await uploadClothingItem({ file: entry.file, name: entry.name, productType, onPhase: (phase) => setStatus(entry.key, { state: 'sending', phase }) });
          setStatus(entry.key, { state: 'done' });
        } catch (failure) {
          const { title, description } = uploadFailure(failure);
          setStatus(entry.key, { state: 'failed', message: `${title}: ${description}` });
          throw failure;
        }
      }),
    );
    setBusy(false);
    void refresh();
    const failed = results.filter((result) => result.status === 'rejected').length;
    const added = results.length - failed;
    if (failed === 0) {
      dismissStaleErrors();
      toast.success(`${plural(added, 'item')} added`, { description: 'They are in your clothing library.' });
      reset();
      onOpenChange(false);
    } else {
      toast.error('Upload failed', { description: `${failed} of ${results.length} images could not be added. See the list for details.` });
    }
  };

  return (
    <UploadDialog open={open} onOpenChange={changeOpen} title="Batch Upload" description={`Add up to ${CLOTHING_BATCH_MAX_FILES} images at once. Each item is named after its file.`}>
      <DialogForm
        onSubmit={(event) => void onSubmit(event)}
        busy={busy}
        submitLabel={entries.length > 1 ? `Upload ${entries.length} images` : 'Upload'}
      >
        <FileField label="Images" hint="JPEG, PNG or WebP, up to 12 MB each." multiple onChange={onFiles} disabled={busy} error={error} />
        <ProductTypeSelect value={productType} onChange={setProductType} disabled={busy} />

        {refused.length > 0 && (
          <ul role="alert" aria-label="Files not added" className="space-y-1 rounded-lg bg-red-50 p-3 text-sm text-red-800">
            {refused.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}

        {entries.length > 0 && (
          <ul aria-label="Selected images" className="space-y-3">
            {entries.map((entry) => (
              <li key={entry.key} className="rounded-lg border border-slate-200 p-3">
                <EntryRow entry={entry} />
              </li>
            ))}
          </ul>
        )}
      </DialogForm>
    </UploadDialog>
  );
}

function EntryRow({ entry }: { entry: Entry }) {
  const { status } = entry;
  if (status.state === 'sending') return <UploadProgress phase={status.phase} label={entry.name} />;
  return (
    <div className="flex items-start justify-between gap-3 text-sm">
      <span className="min-w-0">
        <span className="block break-all font-medium text-slate-900">{entry.name}</span>
        <span className="break-all text-slate-600">
          {entry.file.name} · {formatFileSize(entry.file.size)}
        </span>
        {status.state === 'failed' && <span className="block text-red-700">{status.message}</span>}
      </span>
      {status.state === 'done' && (
        <span className="flex shrink-0 items-center gap-1 text-emerald-700">
          <CheckCircle2 className="h-4 w-4" aria-hidden="true" /> Added
        </span>
      )}
      {status.state === 'failed' && (
        <span className="flex shrink-0 items-center gap-1 text-red-700">
          <XCircle className="h-4 w-4" aria-hidden="true" /> Failed
        </span>
      )}
    </div>
  );
}
