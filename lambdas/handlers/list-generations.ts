import '../domain/caller-gate.js';
import { HISTORY_LIMIT, PICKER_HISTORY_LIMIT } from '../contracts/catalog.js';
import { GenerationsQuery } from '../contracts/generations.js';
import { userRoute } from '../core/http.js';
import { listGenerationViews } from '../domain/generation/service.js';

export const handler = userRoute({ query: GenerationsQuery }, async ({ caller, query }) => {
  const picker = query.picker === 'true';
  const limit = Math.min(query.limit ?? HISTORY_LIMIT, picker ? PICKER_HISTORY_LIMIT : HISTORY_LIMIT);
  return { items: await listGenerationViews(caller.userId, { type: query.type, limit, picker }) };
});
