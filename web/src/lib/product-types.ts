import { PRODUCT_TYPES, type ProductType } from '@contracts/catalog';

/** The product types as the screens name them, in the catalogue's order. */
export const PRODUCT_LABELS: Record<ProductType, string> = { clothing: 'Clothing', jewelry: 'Jewelry' };

export const PRODUCT_TYPE_OPTIONS = PRODUCT_TYPES.map((type) => ({ value: type, label: PRODUCT_LABELS[type] }));

/** What one of the caller's results was made as: its recorded product type, clothing when it has none. */
export function productTypeOfResult(generation: { params: Record<string, unknown> }): ProductType {
  const recorded = generation.params.productType;
  return PRODUCT_TYPES.find((type) => type === recorded) ?? 'clothing';
}
