// A model's name and description (both required, each with its error): the fields New Model and Edit share.
import { CLOTHING_NAME_MAX_LENGTH } from '@contracts/catalog';
import { MODEL_DESCRIPTION_PLACEHOLDER, PROMPT_MAX_LENGTH } from '@contracts/generations';
import { useId } from 'react';
import { Input, Label, Textarea } from '@/components/ui/field';

interface ModelFieldsProps {
  name: string;
  onNameChange: (name: string) => void;
  description: string;
  onDescriptionChange: (description: string) => void;
  errors: { name?: string; description?: string };
  disabled?: boolean;
}

export function ModelFields({ name, onNameChange, description, onDescriptionChange, errors, disabled }: ModelFieldsProps) {
  const ids = { name: useId(), nameError: useId(), description: useId(), descriptionError: useId() };
  return (
    <>
      <div>
        <Label htmlFor={ids.name}>Name</Label>
        <Input
          id={ids.name}
          value={name}
          onChange={(event) => onNameChange(event.target.value)}
          maxLength={CLOTHING_NAME_MAX_LENGTH}
          disabled={disabled}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? ids.nameError : undefined}
          placeholder="e.g. Maya"
        />
        {errors.name && (
          <p id={ids.nameError} role="alert" className="mt-1.5 text-sm text-red-700">
            {errors.name}
          </p>
        )}
      </div>
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
        {errors.description && (
          <p id={ids.descriptionError} role="alert" className="mt-1.5 text-sm text-red-700">
            {errors.description}
          </p>
        )}
      </div>
    </>
  );
}
