// A clothing item's name (required, with its error), product type and description (optional): the fields New Item and
// Edit share.
import { CLOTHING_DESCRIPTION_MAX_LENGTH, CLOTHING_NAME_MAX_LENGTH, type ProductType } from '@contracts/catalog';
import { useId } from 'react';
import { Input, Label, Select, Textarea } from '@/components/ui/field';
import { PRODUCT_TYPE_OPTIONS } from '@/lib/product-types';

interface ItemFieldsProps {
  name: string;
  onNameChange: (name: string) => void;
  nameError?: string;
  description: string;
  onDescriptionChange: (description: string) => void;
  productType: ProductType;
  onProductTypeChange: (productType: ProductType) => void;
  disabled?: boolean;
  autoFocus?: boolean;
  placeholders?: { name: string; description: string };
}

export function ItemFields(props: ItemFieldsProps) {
  const { name, onNameChange, nameError, description, onDescriptionChange, productType, onProductTypeChange, disabled, autoFocus, placeholders } = props;
  const ids = { name: useId(), nameError: useId(), description: useId(), productType: useId() };
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
        <Label htmlFor={ids.productType}>Product type</Label>
        <Select id={ids.productType} value={productType} disabled={disabled} onChange={(event) => onProductTypeChange(event.target.value as ProductType)}>
          {PRODUCT_TYPE_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
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
