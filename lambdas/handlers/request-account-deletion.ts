import '../domain/caller-gate.js';
import { DeleteAccountRequest } from '../contracts/account.js';
import { userRoute } from '../core/http.js';
import { requestAccountDeletion } from '../domain/account/deletion.js';

export const handler = userRoute({ body: DeleteAccountRequest }, ({ caller, body }) => requestAccountDeletion(caller, body));
