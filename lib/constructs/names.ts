/** 'pricingTiers' → 'PricingTiers', 'get-profile' → 'GetProfile': construct ids from logical names. */
export function pascalCase(name: string): string {
  return name
    .split(/[-_\s]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
