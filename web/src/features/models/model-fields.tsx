// A model's name and description (both required, each with its error): the fields New Model and Edit share.
import { MODEL_DESCRIPTION_PLACEHOLDER, PROMPT_MAX_LENGTH } from '@contracts/generations';
import { useId } from 'react';
import { FieldError, NameField } from '@/components/library/library-fields';
import { Label, Textarea } from '@/components/ui/field';

interface ModelFieldsProps {
  name: string;
  onNameChange: (name: string) => void;
  description: string;
  onDescriptionChange: (description: string) => void;
  errors: { name?: string; description?: string };
  disabled?: boolean;
}

export function ModelFields({ name, onNameChange, description, onDescriptionChange, errors, disabled }: ModelFieldsProps) {
  const ids = { description: useId(), descriptionError: useId() };
  return (
    <>
      <NameField value={name} onChange={onNameChange} error={errors.name} disabled={disabled} placeholder="e.g. Maya" />
      <div>
        <Label htmlFor={ids.description}>Model description</Label>
        <Textarea
          id={ids.description}
          value={description}
          onChange={(event) => onDescriptionChange(event.target.value)}
          maxLength={PROMPT_MAX_LENGTH}
          disabled={disabled}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? ids.descriptionError : undefined}
          placeholder={MODEL_DESCRIPTION_PLACEHOLDER}
        />
        <p className="mt-1 text-xs text-slate-600">Gender presentation, age range, skin tone, hair, build, expression, pose style.</p>
        {errors.description && <FieldError id={ids.descriptionError}>{errors.description}</FieldError>}
      </div>
    </>
  );
}
