// Importing a product photo from a link: the page's candidates, then the picked one stored for a screen.
import { ImportedImage, ImportResponse, type ImportPurpose } from '@contracts/imports';
import { apiRequest } from './api';

export function findProductImages(url: string): Promise<ImportResponse> {
  return apiRequest(ImportResponse, '/imports', { method: 'POST', body: { url } });
}

export function storeImportedImage(importId: string, imageUrl: string, purpose: ImportPurpose): Promise<ImportedImage> {
  return apiRequest(ImportedImage, `/imports/${encodeURIComponent(importId)}/select`, { method: 'POST', body: { imageUrl, purpose } });
}
