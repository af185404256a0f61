// Importing a product photo from a link: the page's candidates, then the picked one stored for a screen.
import { createImportRoute, selectImportImageRoute } from '@contracts/imports';
import { ImportedImage, ImportResponse, type ImportPurpose } from '@contracts/imports';
import { callRoute } from './api';

export function findProductImages(url: string): Promise<ImportResponse> {
  return callRoute(createImportRoute, { body: { url } });
}

export function storeImportedImage(importId: string, imageUrl: string, purpose: ImportPurpose): Promise<ImportedImage> {
  return callRoute(selectImportImageRoute, { params: { id: importId }, body: { imageUrl, purpose } });
}
