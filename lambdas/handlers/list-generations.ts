import { listGenerationsRoute } from '../contracts/generations.js';
import { HISTORY_LIMIT, PICKER_HISTORY_LIMIT } from '../contracts/catalog.js';
import { route } from '../core/http.js';
import { listGenerationViews } from '../domain/generation/service.js';

export const handler = route(listGenerationsRoute, async ({ caller, query }) => {
  const picker = query.picker === 'true';
  const limit = Math.min(query.limit ?? HISTORY_LIMIT, picker ? PICKER_HISTORY_LIMIT : HISTORY_LIMIT);
  return { items: await listGenerationViews(caller.userId, { type: query.type, limit, picker }) };
});
