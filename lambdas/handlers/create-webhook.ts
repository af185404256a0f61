import '../domain/caller-gate.js';
import { CreateWebhookRequest } from '../contracts/webhooks.js';
import { Reply, userRoute } from '../core/http.js';
import { createWebhook } from '../domain/webhooks/register.js';

export const handler = userRoute({ body: CreateWebhookRequest }, async ({ caller, body }) => new Reply(201, await createWebhook(caller.userId, body)));
