// The fields a library entry's forms share: its name (required, with its error), the image file, a field's error line.
import { CLOTHING_NAME_MAX_LENGTH } from '@contracts/catalog';
import { useId, type ChangeEvent, type ReactNode } from 'react';
import { Input, Label } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import { IMAGE_ACCEPT } from '@/lib/uploads';

/** A field's error, read out when it appears. */
export function FieldError({ id, className, children }: { id?: string; className?: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className={cn('mt-1.5 text-sm text-red-700', className)}>
      {children}
    </p>
  );
}

export function NameField({
  value,
  onChange,
  error,
  disabled,
  autoFocus,
  placeholder,
}: {
  value: string;
  onChange: (name: string) => void;
  error?: string;
  disabled?: boolean;
  autoFocus?: boolean;
  placeholder?: string;
}) {
  const ids = { name: useId(), error: useId() };
  return (
    <div>
      <Label htmlFor={ids.name}>Name</Label>
      <Input
        id={ids.name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={CLOTHING_NAME_MAX_LENGTH}
        required
        disabled={disabled}
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? ids.error : undefined}
        placeholder={placeholder}
      />
      {error && <FieldError id={ids.error}>{error}</FieldError>}
    </div>
  );
}

/** The file input of an upload form, with what it takes and its error. */
export function FileField({
  label,
  hint,
  multiple,
  onChange,
  disabled,
  error,
}: {
  label: string;
  hint: string;
  multiple?: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  disabled?: boolean;
  error?: string;
}) {
  const ids = { input: useId(), error: useId() };
  return (
    <div>
      <Label htmlFor={ids.input}>{label}</Label>
      <input
        id={ids.input}
        type="file"
        multiple={multiple}
        accept={IMAGE_ACCEPT}
        onChange={onChange}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? ids.error : undefined}
        className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:py-2 file:text-sm file:font-medium file:text-brand-700 hover:file:bg-brand-100"
      />
      <p className="mt-1 text-xs text-slate-600">{hint}</p>
      {error && <FieldError id={ids.error}>{error}</FieldError>}
    </div>
  );
}
