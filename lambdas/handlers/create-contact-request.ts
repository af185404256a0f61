import { createContactRequestRoute } from '../contracts/contact.js';
import { route } from '../core/http.js';
import { createContactRequest } from '../domain/support/contact.js';

export const handler = route(createContactRequestRoute, ({ body }) => createContactRequest(body));
