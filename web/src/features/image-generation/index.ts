// What other features may use of this one (the linter allows only this file across features).
// The clothing list is one query of web/src/lib (useClothingItems); this name stays for the screens that still use it.
export { useClothingItems as useLibraryItems } from '@/lib/clothing-items';
