import type { UploadPhase } from './api';

/** A real progress bar for one upload: the bytes sent, then the server's check of the stored image. */
export function UploadProgress({ phase, label }: { phase: UploadPhase; label: string }) {
  const percent = phase.step === 'uploading' ? Math.round(phase.fraction * 100) : 100;
  const text = phase.step === 'uploading' ? `Uploading… ${percent}%` : 'Checking the image…';
  return (
    <div className="space-y-1">
      <div className="flex justify-between text-xs text-slate-700">
        <span className="truncate">{label}</span>
        <span aria-hidden="true">{text}</span>
      </div>
      <div
        role="progressbar"
        aria-label={`Upload of ${label}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-600 transition-[width] duration-200" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
