import { requestAccountDeletionRoute } from '../contracts/account.js';
import { route } from '../core/http.js';
import { requestAccountDeletion } from '../domain/account/deletion.js';

export const handler = route(requestAccountDeletionRoute, ({ caller, body }) => requestAccountDeletion(caller, body));
