// The dialogs of a library screen (Clothing, Models): the add dialog with its upload form, a dialog about one entry
// (details, edit), the confirmation of a delete, and the pieces their forms share (the source switch, the buttons).
import type { FormEvent, ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';

/** The add dialog ('New Item', 'New Model', 'Batch Upload'): tall content scrolls; its body is there only while open. */
export function UploadDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && (
        <DialogContent title={title} description={description} className="max-h-[90vh] overflow-y-auto">
          {children}
        </DialogContent>
      )}
    </Dialog>
  );
}

/** Cancel, then the dialog's own button (stacked on a phone, the own button on top); Cancel waits while `busy`. */
function DialogActions({ busy, className, children }: { busy: boolean; className: string; children: ReactNode }) {
  return (
    <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)}>
      <DialogClose asChild>
        <Button variant="outline" disabled={busy}>
          Cancel
        </Button>
      </DialogClose>
      {children}
    </div>
  );
}

/** A dialog's form: its fields, then Cancel and the submit button; while `busy`, both wait. */
export function DialogForm({
  onSubmit,
  busy,
  submitLabel,
  children,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  busy: boolean;
  submitLabel: ReactNode;
  children: ReactNode;
}) {
  return (
    <form className="mt-5 space-y-4" onSubmit={onSubmit} noValidate aria-busy={busy}>
      {children}
      <DialogActions busy={busy} className="pt-2">
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
      </DialogActions>
    </form>
  );
}

/** A dialog about one entry of the library (its details, its edit form); open while there is one. */
export function EntryDialog<T>({
  entry,
  onClose,
  title,
  description,
  className,
  children,
}: {
  entry: T | undefined;
  onClose: () => void;
  title: (entry: T) => string;
  description?: (entry: T) => string | undefined;
  className?: string;
  children: (entry: T) => ReactNode;
}) {
  return (
    <Dialog open={entry !== undefined} onOpenChange={(open) => !open && onClose()}>
      {entry !== undefined && (
        <DialogContent title={title(entry)} description={description?.(entry)} className={className}>
          {children(entry)}
        </DialogContent>
      )}
    </Dialog>
  );
}

/** 'Delete this …?' with Cancel and Delete; it stays open until the delete has answered. */
export function ConfirmDeleteDialog<T>({
  entry,
  onClose,
  title,
  description,
  deleting,
  onConfirm,
}: {
  entry: T | undefined;
  onClose: () => void;
  title: string;
  description: (entry: T) => string;
  deleting: boolean;
  onConfirm: (entry: T) => void;
}) {
  return (
    <Dialog open={entry !== undefined} onOpenChange={(open) => !open && !deleting && onClose()}>
      {entry !== undefined && (
        <DialogContent role="alertdialog" title={title} description={description(entry)}>
          <DialogActions busy={deleting} className="mt-6">
            <Button variant="destructive" busy={deleting} onClick={() => onConfirm(entry)}>
              Delete
            </Button>
          </DialogActions>
        </DialogContent>
      )}
    </Dialog>
  );
}

/** Where the picture comes from (a file, a product link, a result…): one pressed button of a few. */
export function SourceSwitch<V extends string>({
  label,
  options,
  value,
  onChange,
  disabled,
}: {
  label: string;
  options: readonly (readonly [V, string])[];
  value: V;
  onChange: (value: V) => void;
  disabled?: boolean;
}) {
  return (
    <div className="inline-flex flex-wrap rounded-lg bg-slate-100 p-1 text-sm" role="group" aria-label={label}>
      {options.map(([option, text]) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          disabled={disabled}
          onClick={() => onChange(option)}
          className={cn('rounded-md px-3 py-1.5 font-medium', value === option ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:text-slate-900')}
        >
          {text}
        </button>
      ))}
    </div>
  );
}
