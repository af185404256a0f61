import { getPublicationRoute } from '../contracts/shopify.js';
import { route } from '../core/http.js';
import { getPublicationView } from '../domain/shopify/views.js';

export const handler = route(getPublicationRoute, ({ caller, params }) => getPublicationView(caller.userId, params.id ?? ''));
