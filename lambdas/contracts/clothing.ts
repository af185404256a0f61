// The routes of the clothing library: upload, register, list, read, change and delete clothing items. Their schemas
// are in api.ts.
// Each route is built in a `/* @__PURE__ */` call so that a bundle builds only the routes it reads (see route.ts).
import {
  ClothingItem,
  ClothingItemsQuery,
  CreateUploadUrlRequest,
  CreateUploadUrlResponse,
  ListResponse,
  MakeClothingThumbnailsResponse,
  RegisterClothingItemRequest,
  UpdateClothingItemRequest,
} from './api.js';
import { defineRoute, ROUTE_ERRORS, SAMPLE_IDS } from './route.js';

export const createClothingUploadUrlRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/clothing-items/upload-url',
  auth: 'user',
  publicApi: true,
  summary: 'A signed URL to PUT a clothing photo to',
  body: CreateUploadUrlRequest,
  response: CreateUploadUrlResponse,
  sample: { body: { fileName: 'red-tshirt.jpg', contentType: 'image/jpeg', sizeBytes: 48_213 } },
}))();

export const registerClothingItemRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/clothing-items',
  auth: 'user',
  publicApi: true,
  summary: 'Register an uploaded photo as a clothing item',
  body: RegisterClothingItemRequest,
  response: ClothingItem,
  status: 201,
  errors: { 403: ROUTE_ERRORS.notYours, 409: 'This upload is already a clothing item (ALREADY_REGISTERED).' },
  sample: { body: { imageKey: '{{userId}}/clothing/sample-upload.jpg', name: 'Red logo T-shirt', description: 'Cotton crew-neck T-shirt.' } },
}))();

export const listClothingItemsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/clothing-items',
  auth: 'user',
  publicApi: true,
  summary: 'Your clothing items',
  query: ClothingItemsQuery,
  response: ListResponse(ClothingItem),
  sample: { query: { active: 'true' } },
}))();

export const getClothingItemRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/clothing-items/{id}',
  auth: 'user',
  publicApi: true,
  summary: 'One clothing item',
  response: ClothingItem,
  sample: { params: { id: SAMPLE_IDS.clothingItem } },
}))();

export const updateClothingItemRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'PATCH',
  path: '/clothing-items/{id}',
  auth: 'user',
  summary: 'Rename a clothing item or change its description or product type',
  body: UpdateClothingItemRequest,
  response: ClothingItem,
  sample: { params: { id: SAMPLE_IDS.clothingItem }, body: { name: 'Red logo T-shirt (2026)' } },
}))();

export const deleteClothingItemRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'DELETE',
  path: '/clothing-items/{id}',
  auth: 'user',
  summary: 'Delete a clothing item and its photo',
  response: ClothingItem,
  sample: { params: { id: SAMPLE_IDS.clothingItem } },
}))();

/**
 * The backfill of thumbnails for items stored before they had one (new items get theirs when they are registered):
 * makes up to MAKE_THUMBNAILS_PER_CALL of the caller's missing ones and says how many are left. Never a GET: the
 * Clothing screen calls it when a list shows items without a thumbnail.
 */
export const makeClothingThumbnailsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/clothing-items/thumbnails',
  auth: 'user',
  summary: 'Make the thumbnails of your clothing items stored before items had them',
  response: MakeClothingThumbnailsResponse,
}))();

/** How many thumbnails one call makes at most (12 MP photos: well inside the route's time). */
export const MAKE_THUMBNAILS_PER_CALL = 8;
