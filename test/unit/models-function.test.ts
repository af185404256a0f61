// The saved-models routes share one deployed function (lambdas/handlers/models.ts): each route key, and its /v1
// twin, must reach that route's own handler module, the one the twin calls directly.
import { describe, expect, it } from 'vitest';
import { handler, routeHandlerFor } from '../../lambdas/handlers/models.js';
import { ROUTES, type RouteDefinition } from '../../lambdas/routes.js';
import { routeEvent, sampleClaims } from '../../lib/local/functions.js';

const shared = (ROUTES as readonly RouteDefinition[]).filter((route) => route.sharedFunction === 'models');

describe('the saved-models function', () => {
  it("hands each route, and its /v1 twin, to that route's handler", async () => {
    expect(shared.map((route) => route.handler).sort()).toEqual(['create-model', 'create-model-upload-url', 'delete-model', 'list-models', 'update-model']);
    for (const route of shared) {
      const own = ((await import(`../../lambdas/handlers/${route.handler}.ts`)) as { handler: unknown }).handler;
      expect(routeHandlerFor(`${route.method} ${route.path}`), route.handler).toBe(own);
      expect(routeHandlerFor(`${route.method} /v1${route.path}`), route.handler).toBe(own);
    }
  });

  it('answers 404 to a route it does not serve', async () => {
    const event = routeEvent(shared[0]!, {}, sampleClaims());
    event.routeKey = 'GET /clothing-items';
    expect(await handler(event)).toMatchObject({ statusCode: 404 });
  });
});
