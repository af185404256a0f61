// A clothing item's name (required, with its error) and description (optional): the fields New Item and Edit share.
import { CLOTHING_DESCRIPTION_MAX_LENGTH, CLOTHING_NAME_MAX_LENGTH } from '@contracts/catalog';
import { useId } from 'react';
import { Input, Label, Textarea } from '@/components/ui/field';

interface ItemFieldsProps {
  name: string;
  onNameChange: (name: string) => void;
  nameError?: string;
  description: string;
  onDescriptionChange: (description: string) => void;
  disabled?: boolean;
  autoFocus?: boolean;
  placeholders?: { name: string; description: string };
}

export function ItemFields({ name, onNameChange, nameError, description, onDescriptionChange, disabled, autoFocus, placeholders }: ItemFieldsProps) {
  const ids = { name: useId(), nameError: useId(), description: useId() };
  return (
    <>
      <div>
        <Label htmlFor={ids.name}>Name</Label>
        <Input
          id={ids.name}
          value={name}
          onChange={(event) => onNameChange(event.target.value)}
          maxLength={CLOTHING_NAME_MAX_LENGTH}
          required
          disabled={disabled}
          autoFocus={autoFocus}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? ids.nameError : undefined}
          placeholder={placeholders?.name}
        />
        {nameError && (
          <p id={ids.nameError} role="alert" className="mt-1.5 text-sm text-red-700">
            {nameError}
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
          onChange={(event) => onDescriptionChange(event.target.value)}
          maxLength={CLOTHING_DESCRIPTION_MAX_LENGTH}
          disabled={disabled}
          placeholder={placeholders?.description}
        />
      </div>
    </>
  );
}
