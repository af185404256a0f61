// A route is declared once: its contract object in lambdas/contracts/<feature>.ts. The handler is built from that
// object, lambdas/routes.ts adds only infrastructure, and the OpenAPI document, the twin and the web client read the
// same object, so adding a route touches the contract file, the handler and one entry of routes.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RouteContract } from '../../lambdas/contracts/route.js';
import { ROUTES } from '../../lambdas/routes.js';

const root = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(resolve(root, path), 'utf8');
const isContract = (value: unknown): value is RouteContract =>
  typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'auth' in value && 'summary' in value;

/** Every route contract exported by a contract file, by its export name. */
async function declaredContracts(): Promise<Map<RouteContract, string>> {
  const contracts = new Map<RouteContract, string>();
  for (const file of readdirSync(resolve(root, 'lambdas/contracts')).filter((name) => name.endsWith('.ts'))) {
    const module = (await import(`../../lambdas/contracts/${file}`)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) if (isContract(value)) contracts.set(value, name);
  }
  return contracts;
}

describe('each route is declared once', () => {
  it('every contract object is served by exactly one entry of the route table, with its own method, path and auth', async () => {
    const contracts = await declaredContracts();
    expect(contracts.size).toBe(ROUTES.length);
    for (const route of ROUTES) {
      expect(contracts.has(route.contract), `${route.handler}: its contract is exported by a contract file`).toBe(true);
      expect(ROUTES.filter((other) => other.contract === route.contract)).toHaveLength(1);
      expect([route.method, route.path, route.auth, Boolean(route.publicApi)]).toEqual([route.contract.method, route.contract.path, route.contract.auth, Boolean(route.contract.publicApi)]);
    }
  });

  it('every handler is built from its route contract', async () => {
    const contracts = await declaredContracts();
    for (const route of ROUTES) {
      // Stripe's webhook reads the raw body for its signature, so it answers without the JSON wrapper.
      if (route.handler === 'stripe-webhook') continue;
      const source = read(`lambdas/handlers/${route.handler}.ts`);
      expect(source, route.handler).toMatch(new RegExp(`\\b(route|spendingRoute|rawRoute)\\(${contracts.get(route.contract)},`));
    }
  });

  it('the route table, the OpenAPI document, the twin and the web client keep no route list of their own', () => {
    const readers = ['lambdas/routes.ts', 'lambdas/contracts/openapi.ts', 'lib/local/functions.ts', 'lib/local/route-samples.ts', 'lib/local/gateway.ts', 'web/src/lib/api.ts'];
    for (const file of readers) {
      const source = read(file);
      for (const route of ROUTES) expect(source.includes(`'${route.path}'`), `${file} names ${route.path}`).toBe(false);
    }
    expect(read('lambdas/routes.ts')).not.toMatch(/^\s*(method|path|auth|publicApi): /m);
  });
});
