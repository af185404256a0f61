import { makeClothingThumbnailsRoute } from '../contracts/clothing.js';
import { route } from '../core/http.js';
import { makeMissingThumbnails } from '../domain/clothing-thumbnails.js';

export const handler = route(makeClothingThumbnailsRoute, ({ caller }) => makeMissingThumbnails(caller.userId));
