// "Product type": what the picture shows (clothing, jewelry, …), which decides how the product is placed.
import type { ProductType } from '@contracts/catalog';
import { useId } from 'react';
import { Label, Select } from '@/components/ui/field';
import { PRODUCT_TYPE_OPTIONS } from '@/lib/product-types';

export function ProductTypeSelect({ value, onChange, disabled }: { value: ProductType; onChange: (productType: ProductType) => void; disabled?: boolean }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id}>Product type</Label>
      <Select id={id} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value as ProductType)}>
        {PRODUCT_TYPE_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </div>
  );
}
