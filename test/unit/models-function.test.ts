// The saved-models routes share one deployed function (lambdas/handlers/models.ts): each request, and its /v1 twin,
// must reach that route's own handler. Requests that each handler refuses in its own way, before any storage is
// touched, show which one answered.
import { describe, expect, it } from 'vitest';
import { MODEL_MESSAGES } from '../../lambdas/contracts/models.js';
import { handler } from '../../lambdas/handlers/models.js';
import { ROUTES, type RouteDefinition } from '../../lambdas/routes.js';
import { routeEvent, sampleClaims } from '../../lib/local/functions.js';

const routeOf = (name: string) => (ROUTES as readonly RouteDefinition[]).find((route) => route.handler === name)!;

async function answer(name: string, body: unknown, publicApi = false): Promise<{ status: number; body: { code?: string; error?: string } }> {
  const event = routeEvent(routeOf(name), { body, params: { id: 'mdl_x' } }, sampleClaims());
  if (publicApi) event.routeKey = event.routeKey.replace(' /', ' /v1/');
  const result = (await handler(event)) as { statusCode: number; body: string };
  return { status: result.statusCode, body: JSON.parse(result.body) };
}

describe('the saved-models function', () => {
  it('hands each route, and its /v1 twin, to that route\'s handler', async () => {
    for (const publicApi of [false, true]) {
      expect(await answer('create-model-upload-url', { fileName: 'a.gif', contentType: 'image/gif', sizeBytes: 10 }, publicApi)).toMatchObject({ status: 400, body: { code: 'INVALID_FILE_TYPE' } });
      expect(await answer('create-model', { name: 'Maya', description: 'woman', imageKey: 'u/models/x.jpg' }, publicApi)).toMatchObject({
        status: 400,
        body: { error: expect.stringContaining(MODEL_MESSAGES.confirmRights) },
      });
      expect(await answer('update-model', {}, publicApi)).toMatchObject({ status: 400, body: { error: expect.stringContaining('Nothing to change') } });
    }
  });

  it('answers 404 to a route it does not serve', async () => {
    const event = routeEvent(routeOf('list-models'), {}, sampleClaims());
    event.routeKey = 'GET /clothing-items';
    expect(await handler(event)).toMatchObject({ statusCode: 404 });
  });
});
