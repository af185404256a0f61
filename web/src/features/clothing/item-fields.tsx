// A clothing item's name (required, with its error), product type and description (optional): the fields New Item and
// Edit share.
import { CLOTHING_DESCRIPTION_MAX_LENGTH, type ProductType } from '@contracts/catalog';
import { useId } from 'react';
import { NameField } from '@/components/library/library-fields';
import { ProductTypeSelect } from '@/components/product-type-select';
import { Label, Textarea } from '@/components/ui/field';

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
  const descriptionId = useId();
  return (
    <>
      <NameField value={name} onChange={onNameChange} error={nameError} disabled={disabled} autoFocus={autoFocus} placeholder={placeholders?.name} />
      <ProductTypeSelect value={productType} onChange={onProductTypeChange} disabled={disabled} />
      <div>
        <Label htmlFor={descriptionId}>
          Description <span className="font-normal text-slate-600">(optional)</span>
        </Label>
        <Textarea
          id={descriptionId}
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
