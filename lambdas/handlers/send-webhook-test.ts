import '../domain/caller-gate.js';
import { Reply, userRoute } from '../core/http.js';
import { sendTestEvent } from '../domain/webhooks/endpoints.js';

export const handler = userRoute({}, async ({ caller, params }) => new Reply(202, await sendTestEvent(caller.userId, params.id ?? '')));
