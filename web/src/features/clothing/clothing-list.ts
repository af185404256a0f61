import type { ClothingItem } from '@contracts/api';

export const SORTS = [
  { value: 'latest', label: 'Latest First' },
  { value: 'name', label: 'Name A-Z' },
  { value: 'most-used', label: 'Most Used' },
] as const;
export type SortOrder = (typeof SORTS)[number]['value'];

const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const newestFirst = (a: ClothingItem, b: ClothingItem) => b.created_at.localeCompare(a.created_at);

const COMPARE: Record<SortOrder, (a: ClothingItem, b: ClothingItem) => number> = {
  latest: newestFirst,
  name: (a, b) => byName.compare(a.name, b.name) || newestFirst(a, b),
  'most-used': (a, b) => b.generations_count - a.generations_count || newestFirst(a, b),
};

/** The items that match the search (name or description, any case), in the chosen order. */
export function visibleItems(items: readonly ClothingItem[], search: string, sort: SortOrder): ClothingItem[] {
  const needle = search.trim().toLocaleLowerCase();
  const matches = needle
    ? items.filter((item) => `${item.name}\n${item.description ?? ''}`.toLocaleLowerCase().includes(needle))
    : [...items];
  return matches.sort(COMPARE[sort]);
}
