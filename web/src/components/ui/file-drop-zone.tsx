import { Upload } from 'lucide-react';
import { IMAGE_ACCEPT } from '@/lib/uploads';

/** A dashed drop zone that opens the file picker: the chosen file's preview (or an upload icon), its name and a hint. */
export function FileDropZone({
  id,
  fileName,
  previewUrl,
  placeholder,
  hint,
  ariaLabel,
  onFile,
}: {
  id: string;
  fileName: string | undefined;
  previewUrl?: string;
  placeholder: string;
  hint: string;
  ariaLabel: string;
  onFile: (file: File | undefined) => void;
}) {
  return (
    <label
      htmlFor={id}
      className="flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-700 hover:border-brand-600 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
    >
      {previewUrl ? <img src={previewUrl} alt="" className="h-32 rounded object-contain" /> : <Upload className="h-6 w-6 text-slate-500" aria-hidden="true" />}
      <span className="font-medium text-slate-900">{fileName ?? placeholder}</span>
      <span className="text-xs text-slate-600">{hint}</span>
      <input
        id={id}
        type="file"
        accept={IMAGE_ACCEPT}
        className="sr-only"
        aria-label={ariaLabel}
        onChange={(event) => {
          onFile(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
    </label>
  );
}
