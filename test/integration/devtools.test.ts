// The developer tools as a developer runs them: `npm run event` and `npm run invoke` as separate processes against
// this layer's twin, the sample events against every function's contract (and every route's own handler), and the
// demo seed run twice.
import { execFile } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { SIGNUP_CREDITS } from '../../lambdas/contracts/catalog.js';
import { ROUTES } from '../../lambdas/routes.js';
import { freePort } from '../../lib/local/processes.js';
import { WORKFLOWS } from '../../lambdas/workflows.js';
import { api } from '../support/api.js';
import { createUser, signIn, uniqueEmail } from '../support/users.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const { contractProblems, knownFunctions, sampleEvent } = await import('../../lib/local/functions.js');
const { ensureBundles } = await import('../../lib/local/bundles.js');
const { deployedFunction } = await import('../../lib/local/deployed-functions.js');
const { startTwinFunctions } = await import('../../lib/local/twin.js');
const { seedDemo } = await import('../../lib/local/demo.js');

const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'modelloop-devtools-test-'));
const twinInfoFile = join(scratch, 'twin.json');
writeFileSync(twinInfoFile, JSON.stringify(twin));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = promisify(execFile);
const tsx = resolve(root, 'node_modules/tsx/dist/cli.mjs');

/** One script run as `npm run <script> -- …` runs it, pointed at this layer's twin. */
async function script(name: 'invoke' | 'event', ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [tsx, `scripts/${name}.ts`, ...args], {
      cwd: root,
      env: { ...process.env, MODELLOOP_TWIN_INFO: twinInfoFile },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The pretty JSON body invoke printed after the status and headers. */
function printedJson(stdout: string): any {
  const start = stdout.indexOf('\n{');
  const end = stdout.indexOf('\n}', start);
  return JSON.parse(stdout.slice(start + 1, end + 2));
}

describe('npm run invoke', () => {
  it('answers get-profile --as a new user with 200 and the 5 sign-up credits, signing the user up on cognito-local', async () => {
    const email = uniqueEmail('invoke');
    const { code, stdout } = await script('invoke', 'get-profile', '--as', email);
    expect(code).toBe(0);
    expect(stdout).toContain('HTTP 200');
    expect(stdout).toContain('content-type: application/json');
    expect(stdout).toMatch(/── duration \d+ ms/);
    const profile = printedJson(stdout);
    expect(profile).toMatchObject({ email, current_credits: SIGNUP_CREDITS });
  });

  it('sends a POST route the --body given, with the Idempotency-Key of its sample event', async () => {
    const user = await createUser(twin);
    const { code, stdout } = await script('invoke', 'purchase-credits', '--as', user.email, '--body', '{"credits": 12}');
    expect(code).toBe(0);
    expect(stdout).toContain('HTTP 200');
    expect(printedJson(stdout)).toMatchObject({ credits: 12, newCredits: SIGNUP_CREDITS + 12 });
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).body.current_credits).toBe(SIGNUP_CREDITS + 12);
  });

  it('runs a workflow task with the event `npm run event` printed, edited to name a real generation', async () => {
    const user = await createUser(twin);
    const sample = await script('event', 'generation-process');
    expect(sample.code).toBe(0);
    const event = JSON.parse(sample.stdout) as { userId: string; generationId: string };
    expect(Object.keys(event).sort()).toEqual(['generationId', 'userId']);

    const started = await script('invoke', 'generate-ai-image', '--as', user.email);
    expect(started.stdout).toContain('HTTP 200');
    const { generationId } = printedJson(started.stdout);
    const eventFile = join(scratch, 'process.json');
    writeFileSync(eventFile, JSON.stringify({ ...event, generationId }));

    // --as puts the signed-in user where the sample's user was.
    const { code, stdout } = await script('invoke', 'generation-process', '--event', eventFile, '--as', user.email);
    expect(code).toBe(0);
    expect(stdout).toContain('generation workflow, state Process');
    expect(printedJson(stdout)).toEqual({ status: 'complete' });
    const generation = await api(twin.apiUrl, 'GET', `/generations/${generationId}`, { user });
    expect(generation.body.status).toBe('complete');
  });

  it('answers an unknown name with every known one, by kind', async () => {
    for (const tool of ['invoke', 'event'] as const) {
      const { code, stderr } = await script(tool, 'generate-ai-imag');
      expect(code).toBe(2);
      expect(stderr).toContain("Unknown function 'generate-ai-imag'");
      for (const fn of knownFunctions()) expect(stderr).toContain(fn.name);
    }
  });
});

describe('sample events', () => {
  it('exist for every route, workflow task, workflow-ended, the reconciler and realtime function', () => {
    const names = knownFunctions().map((fn) => fn.name);
    for (const route of ROUTES) expect(names).toContain(route.handler);
    for (const workflow of Object.values(WORKFLOWS)) for (const task of Object.values(workflow.tasks)) expect(names).toContain(task.handler);
    expect(names).toEqual(expect.arrayContaining(['workflow-ended', 'reconciler', 'ws-authorize', 'ws-connect', 'ws-disconnect', 'ws-fan-out']));
  });

  it('pass their function’s contract', async () => {
    for (const fn of knownFunctions()) {
      expect([fn.name, contractProblems(fn.name, await sampleEvent(fn.name, twin.env))]).toEqual([fn.name, []]);
    }
  });

  it('are accepted by every route’s own function (no validation error, no missing key or claims)', async () => {
    const user = await createUser(twin);
    // Each route's deployed bundle in a worker of its own, with this layer's twin's environment, as the twin runs it.
    const functions = ROUTES.map((route) => deployedFunction(route.handler));
    const runner = startTwinFunctions({
      functions,
      bundles: await ensureBundles(functions),
      environment: () => ({ ...process.env, ...twin.env }),
      log: () => undefined,
      output: () => undefined,
    });
    const refused: string[] = [];
    try {
      for (const route of ROUTES) {
        const event = (await sampleEvent(route.handler, twin.env)) as any;
        if (route.auth === 'user') event.requestContext.authorizer.jwt.claims.sub = user.sub;
        const result = (await runner.invoke(route.handler, event, { timeoutMs: 30_000 })) as { statusCode: number; body?: string };
        const body = result.body ? JSON.parse(result.body) : {};
        if (result.statusCode === 401 || ['VALIDATION_ERROR', 'INVALID_JSON', 'IDEMPOTENCY_KEY_REQUIRED'].includes(body.code)) {
          refused.push(`${route.handler}: ${result.statusCode} ${result.body}`);
        }
      }
    } finally {
      await runner.stop();
    }
    expect(refused).toEqual([]);
  }, 600_000);
});

/**
 * The twin's gateway as the seed meets it right after `npm start`: not listening at first, and then, while each
 * function loads for the first time, dropping the first connection of every route without an answer (what the seed
 * printed as "fetch failed"), and answering 503 once more after that; every other request is passed on unchanged.
 */
async function coldGateway(apiUrl: string, startsAfterMs: number): Promise<{ url: string; dropped: () => number; close: () => Promise<void> }> {
  const port = await freePort();
  const target = new URL(apiUrl);
  const seen = new Map<string, number>();
  let dropped = 0;
  const server = createServer((request, response) => {
    const route = `${request.method} ${request.url!.split('?')[0]!.replace(/[0-9a-z]{20,}/g, '{id}')}`;
    const count = (seen.get(route) ?? 0) + 1;
    seen.set(route, count);
    if (count === 1) {
      dropped++;
      request.socket.destroy();
      return;
    }
    if (count === 2) {
      response.writeHead(503, { 'content-type': 'application/json' }).end('{"code":"SERVICE_UNAVAILABLE","error":"Service Unavailable"}');
      return;
    }
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: request.url, method: request.method, headers: { ...request.headers, host: target.host } },
      (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(upstream);
  });
  setTimeout(() => server.listen(port, '127.0.0.1'), startsAfterMs);
  return {
    url: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, '')}`,
    dropped: () => dropped,
    close: () => new Promise((resolveClose) => server.close(() => resolveClose())),
  };
}

describe('the demo seed', () => {
  it('on a cold start (routes not answering yet, then dropped and 503 once each) seeds all the same; run again it leaves the same library, history, videos, ledger and balance', async () => {
    const account = { email: uniqueEmail('demo'), password: 'Demo-studio-2026' };
    const seedAndCount = async (apiUrl: string) => {
      const summary = await seedDemo({ ...twin, apiUrl }, account);
      const user = await signIn(twin, account.email, account.password);
      const ledger = await api(twin.apiUrl, 'GET', '/credit-transactions', { user });
      return { ...summary, ledgerEntries: ledger.body.items.length, ledgerSum: ledger.body.items.reduce((sum: number, entry: { amount: number }) => sum + entry.amount, 0) };
    };
    const cold = await coldGateway(twin.apiUrl, 3_000);
    const first = await seedAndCount(cold.url).finally(() => cold.close());
    expect(cold.dropped(), 'every route dropped its first connection').toBeGreaterThan(8);
    // 3 on-model images, 2 edits, 2 upscales and the video's history row; 5 free + 50 bought − 8 spent: nothing twice.
    expect(first).toMatchObject({ email: account.email, password: account.password, clothingItems: 6, generations: 8, videos: 1, credits: SIGNUP_CREDITS + 50 - 8 });
    expect(first.ledgerSum).toBe(first.credits);
    expect(await seedAndCount(twin.apiUrl)).toEqual(first);
    // Two whole seeds (one through the cold gateway's waits): minutes on a busy 2-core machine.
  }, 600_000);
});
