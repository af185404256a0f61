// Property-based fuzzing of every route of lambdas/routes.ts against the twin over HTTP, as a signed-in user: bodies,
// query strings, path ids and Idempotency-Keys made from each route's zod contract (the route contracts in
// lambdas/contracts/<feature>.ts, the schemas the handlers are built from), valid-ish and hostile, with a fixed seed and a bounded number of
// runs. For every answer: never a 5xx; an error carries a stable upper-snake `code` (or is API Gateway's own
// `{message}` for a path no route matches); and a refused request stored nothing — the user's clothing items,
// generations, video jobs, batches and ledger (and so the balance) are as they were. Every case that ever broke this is
// kept in test/fixtures/fuzz-regressions.json and replayed first.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { fillPath } from '../../lambdas/contracts/route.js';
import { ROUTES } from '../../lambdas/routes.js';
import { hostile, idempotencyKey, pathId, queryArbitrary, validish, type FuzzRequest } from '../support/route-fuzz.js';
import { createUser, type TestUser } from '../support/users.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const { queryAll } = await import('../support/chaos-audit.js');

const SEED = 20261115;
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 40);
const REGRESSIONS_FILE = resolve(import.meta.dirname, '../fixtures/fuzz-regressions.json');
const STABLE_CODE = /^[A-Z][A-Z0-9_]*$/;

interface Regression extends FuzzRequest {
  route: string;
  found: string;
}

type Route = (typeof ROUTES)[number];
const routeKey = (route: Route) => `${route.method} ${route.path}`;
const regressions = JSON.parse(readFileSync(REGRESSIONS_FILE, 'utf8')) as Regression[];
const found: Regression[] = [];

interface Outcome {
  status: number;
  text: string;
  body: any;
}

async function send(user: TestUser, route: Route, request: FuzzRequest): Promise<Outcome> {
  const query = new URLSearchParams(request.query ?? {}).toString();
  const body = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  const response = await fetch(`${twin.apiUrl}${fillPath(route.path, request.params ?? {})}${query ? `?${query}` : ''}`, {
    method: route.method,
    headers: {
      authorization: `Bearer ${user.idToken}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(request.idempotencyKey !== undefined ? { 'idempotency-key': request.idempotencyKey } : {}),
    },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, text, body: parsed };
}

/** What a refused request must not change (refunds aside: those come later from work accepted earlier). */
async function stored(user: TestUser) {
  const [ledger, clothing, generations, jobs, batches, profile] = await Promise.all([
    queryAll<{ transaction_type: string; amount: number }>('ledger', user.sub),
    queryAll<{ id: string }>('clothingItems', user.sub),
    queryAll<{ generation_type: string }>('generations', user.sub),
    queryAll<{ id: string }>('jobs', user.sub),
    queryAll<{ id: string }>('batches', user.sub),
    fetch(`${twin.apiUrl}/profile`, { headers: { authorization: `Bearer ${user.idToken}` } }).then((r) => r.json() as Promise<{ current_credits: number }>),
  ]);
  const refunds = ledger.filter((entry) => entry.transaction_type === 'refund');
  return {
    balanceBeforeRefunds: profile.current_credits - refunds.reduce((sum, entry) => sum + entry.amount, 0),
    ledgerEntries: ledger.length - refunds.length,
    clothingItems: clothing.length,
    generations: generations.filter((generation) => generation.generation_type !== 'video').length,
    jobs: jobs.length,
    batches: batches.length,
  };
}

/** A user whose first call (which creates the profile and grants the sign-up credits) has been made. */
async function profiledUser(): Promise<TestUser> {
  const user = await createUser(twin);
  expect((await fetch(`${twin.apiUrl}/profile`, { headers: { authorization: `Bearer ${user.idToken}` } })).status).toBe(200);
  return user;
}

/** The problems of one answer ('' when it is fine). */
function problemsOf(outcome: Outcome): string {
  if (outcome.status >= 500) return `answered ${outcome.status}: ${outcome.text.slice(0, 300)}`;
  if (outcome.status >= 400) {
    const gatewayNotFound = outcome.status === 404 && outcome.body?.message === 'Not Found' && outcome.body.code === undefined;
    if (!gatewayNotFound && !(typeof outcome.body?.code === 'string' && STABLE_CODE.test(outcome.body.code) && typeof outcome.body.error === 'string')) {
      return `error ${outcome.status} without a stable code: ${outcome.text.slice(0, 300)}`;
    }
  }
  return '';
}

/** Ids and keys of things the fuzzing user really owns: mixed into requests so that handlers get past "not found". */
interface Owned {
  clothingItemId: string;
  imageKey: string;
}

const OWNED_FIELDS: Record<string, keyof Owned> = { clothingItemId: 'clothingItemId', id: 'clothingItemId', imageUrl: 'imageKey', imageKey: 'imageKey' };

function withOwned(request: FuzzRequest, owned: Owned): FuzzRequest {
  const params = request.params && Object.fromEntries(Object.entries(request.params).map(([name, value]) => [name, OWNED_FIELDS[name] ? owned[OWNED_FIELDS[name]] : value]));
  const body =
    request.body && typeof request.body === 'object' && !Array.isArray(request.body)
      ? Object.fromEntries(Object.entries(request.body).map(([name, value]) => [name, OWNED_FIELDS[name] && typeof value === 'string' ? owned[OWNED_FIELDS[name]] : value]))
      : request.body;
  return { ...request, ...(params ? { params } : {}), ...(body !== undefined ? { body } : {}), label: `${request.label}, owned ids` };
}

async function addClothingItem(user: TestUser): Promise<Owned> {
  const photo = await tshirtPhoto(200, 240);
  const headers = { authorization: `Bearer ${user.idToken}`, 'content-type': 'application/json' };
  const uploadAnswer = await fetch(`${twin.apiUrl}/clothing-items/upload-url`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ fileName: 't.jpg', contentType: 'image/jpeg', sizeBytes: photo.length }),
  });
  const upload = (await uploadAnswer.json()) as { uploadUrl: string; headers: Record<string, string>; imageKey: string };
  expect((await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: photo })).status).toBe(200);
  const item = await fetch(`${twin.apiUrl}/clothing-items`, { method: 'POST', headers, body: JSON.stringify({ imageKey: upload.imageKey, name: 'Fuzzed tee' }) });
  expect(item.status).toBe(201);
  const body = (await item.json()) as { id: string; image_url: string };
  return { clothingItemId: body.id, imageKey: body.image_url };
}

function arbitraryFor(route: Route, owned?: Owned): fc.Arbitrary<FuzzRequest> {
  const requests = arbitraryOf(route);
  if (!owned) return requests;
  return fc.tuple(requests, fc.nat(3)).map(([request, draw]) => (draw === 0 ? withOwned(request, owned) : request));
}

function arbitraryOf(route: Route): fc.Arbitrary<FuzzRequest> {
  const { contract } = route;
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const paramsArb = params.length ? fc.record(Object.fromEntries(params.map((name) => [name, pathId]))) : fc.constant(undefined);
  const keyArb = route.method === 'GET' ? fc.constant(undefined) : idempotencyKey;
  const valid = contract.body ? validish(contract.body).map((body) => ({ body, label: 'valid-ish' })) : fc.constant({ body: undefined, label: 'no body' });
  const bodies = route.method === 'GET' ? fc.constant({ body: undefined, label: 'GET' }) : fc.oneof(valid, hostile(contract.body).map((h) => ('raw' in h ? { rawBody: h.raw, label: h.label } : { body: h.value, label: h.label })));
  return fc.record({ params: paramsArb, query: queryArbitrary(contract.query), idempotencyKey: keyArb, body: bodies }).map(({ params: p, query, idempotencyKey: key, body }) => ({
    ...(p ? { params: p } : {}),
    ...(Object.keys(query).length ? { query } : {}),
    ...(key !== undefined ? { idempotencyKey: key } : {}),
    ...('rawBody' in body ? { rawBody: body.rawBody } : body.body !== undefined ? { body: body.body } : {}),
    label: body.label,
  }));
}

describe('fuzzing every route from its contract', () => {
  it('replays every case the fuzzer ever found, and each is answered well now', async () => {
    const user = await profiledUser();
    for (const regression of regressions) {
      const route = ROUTES.find((candidate) => routeKey(candidate) === regression.route);
      expect(route, `route ${regression.route} of a regression`).toBeDefined();
      const before = await stored(user);
      const outcome = await send(user, route!, regression);
      expect(problemsOf(outcome), `${regression.route} ${regression.label}`).toBe('');
      // test-guard: only a refusal promises to store nothing; an accepted request may store what it was asked to.
      if (outcome.status >= 400) expect(await stored(user)).toEqual(before);
    }
  });

  it('answers every route without a 5xx, with stable error codes, storing nothing it refused', async () => {
    const started = performance.now();
    const user = await profiledUser();
    const owned = await addClothingItem(user);
    const failures: string[] = [];
    const statuses: Record<string, number> = {};
    let baseline = await stored(user);
    for (const route of ROUTES) {
      await fc.assert(
        fc.asyncProperty(arbitraryFor(route, owned), async (request) => {
          const outcome = await send(user, route, request);
          statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
          let problem = problemsOf(outcome);
          const now = await stored(user);
          if (!problem && outcome.status >= 400 && JSON.stringify(now) !== JSON.stringify(baseline)) {
            problem = `refused (${outcome.status} ${outcome.body?.code}) but stored something: ${JSON.stringify(baseline)} → ${JSON.stringify(now)}`;
          }
          baseline = now;
          if (problem) {
            failures.push(`${routeKey(route)} [${request.label}] ${problem}\n    request: ${JSON.stringify(request).slice(0, 400)}`);
            found.push({ route: routeKey(route), found: problem.slice(0, 200), ...request });
          }
          return true;
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
    console.log(`route fuzz: ${ROUTES.length} routes × ${RUNS_PER_ROUTE} runs (seed ${SEED}) in ${Math.round((performance.now() - started) / 1000)} s; answers ${JSON.stringify(statuses)}`);
    if (found.length) {
      // Kept for good: the next runs replay them first.
      const known = new Set(regressions.map((regression) => JSON.stringify(regression)));
      const added = found.filter((regression) => !known.has(JSON.stringify(regression)));
      writeFileSync(REGRESSIONS_FILE, `${JSON.stringify([...regressions, ...added], null, 2)}\n`);
    }
    expect(failures).toEqual([]);
    // Every route's function starts its own worker on its first call (a cold start, as in Lambda), and each of the
    // thousands of answers is followed by a read of the user's stored state: minutes, not the layer's default 2.
  }, 600_000);
});
