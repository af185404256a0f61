import { listPublicationsRoute, PUBLICATION_LIST_SIZE } from '../contracts/shopify.js';
import { route } from '../core/http.js';
import { listPublicationViews } from '../domain/shopify/views.js';

export const handler = route(listPublicationsRoute, async ({ caller }) => ({ items: await listPublicationViews(caller.userId, PUBLICATION_LIST_SIZE) }));
