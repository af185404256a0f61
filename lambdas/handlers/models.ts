// The one deployed function of the saved-models routes (their route table entries name it as `sharedFunction`): it
// hands each request to that route's own thin handler, the one the twin calls directly. The /v1 twin of a route is
// the same route.
import type { HttpHandler } from '../core/http.js';
import { ROUTES, type RouteDefinition } from '../routes.js';
import { handler as createModelUploadUrl } from './create-model-upload-url.js';
import { handler as createModel } from './create-model.js';
import { handler as deleteModel } from './delete-model.js';
import { handler as listModels } from './list-models.js';
import { handler as updateModel } from './update-model.js';

const HANDLERS: Record<string, HttpHandler> = {
  'create-model-upload-url': createModelUploadUrl,
  'create-model': createModel,
  'list-models': listModels,
  'update-model': updateModel,
  'delete-model': deleteModel,
};

const BY_ROUTE_KEY = new Map<string, HttpHandler>(
  (ROUTES as readonly RouteDefinition[])
    .filter((route) => route.sharedFunction === 'models')
    .map((route) => [`${route.method} ${route.path}`, HANDLERS[route.handler]!] as const),
);

/** The route's own handler for a route key ('PATCH /models/{id}', or its /v1 twin 'PATCH /v1/models/{id}'). */
export const routeHandlerFor = (routeKey: string): HttpHandler | undefined => BY_ROUTE_KEY.get(routeKey.replace(/^(\w+) \/v1\//, '$1 /'));

export const handler: HttpHandler = (event) => {
  const served = routeHandlerFor(event.routeKey);
  if (!served) return Promise.resolve({ statusCode: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: 'Not found', code: 'NOT_FOUND' }) });
  return served(event);
};
