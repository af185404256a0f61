// The twin runs each function in an execution environment of its own (lib/local/lambda-runtime.ts): a worker process
// that loads the function's bundle. So one function's CPU-bound work never holds up another function's request (the
// gateway only dispatches), an invocation past its timeout is ended with its worker (nothing of it runs on), a worker
// gets no more heap than the function's deployed memory, a bundle finds only what it carries, and a worker never
// outlives the twin. The functions here are small bundles written by the test, outside the project as the twin's are.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_ERROR_CODES } from '../../lambdas/contracts/aws-limits.js';
import type { DeployedFunction } from '../../lib/local/deployed-functions.js';
import { startGateway, type Gateway } from '../../lib/local/gateway.js';
import { FUNCTION_TIMED_OUT, startFunctionRunner, type FunctionRunner } from '../../lib/local/lambda-runtime.js';
import { freePort } from '../../lib/local/processes.js';

const root = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'modelloop-runtime-test-'));

/** A bundle folder holding `index.mjs` with this source. */
function bundle(name: string, source: string, parent = scratch): string {
  const folder = join(parent, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'index.mjs'), source);
  return folder;
}

const BUNDLES = {
  // Spins the CPU for event.ms, appending a dot to event.file every 50 ms (and its pid first).
  busy: `import { appendFileSync } from 'node:fs';
    export const handler = async (event) => {
      appendFileSync(event.file, String(process.pid) + '\\n');
      const end = Date.now() + event.ms;
      let last = 0;
      while (Date.now() < end) if (Date.now() - last >= 50) { appendFileSync(event.file, '.'); last = Date.now(); }
      return { spun: event.ms };
    };`,
  // What the pricing-tiers route answers, at once.
  light: `export const handler = async () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"items":[]}' });`,
  // Keeps every array it makes: 400 MB of them.
  hungry: `export const handler = async () => { const kept = []; for (let i = 0; i < 400; i++) kept.push(new Array(131072).fill(i)); return kept.length; };`,
  // Loads a package its bundle does not carry.
  unbundled: `import sharp from 'sharp';\nexport const handler = async () => typeof sharp;`,
};

const fn = (name: string, spec: Partial<DeployedFunction['spec']> = {}): DeployedFunction => ({ name, kind: 'other', spec: { handler: name, ...spec } });
const FUNCTIONS = [fn('busy', { timeoutSeconds: 4 }), fn('list-pricing-tiers'), fn('hungry', { memoryMb: 128 }), fn('unbundled')];

let runner: FunctionRunner;
let gateway: Gateway;

beforeAll(async () => {
  const bundles = new Map([
    ['busy', bundle('busy', BUNDLES.busy)],
    ['list-pricing-tiers', bundle('light', BUNDLES.light)],
    ['hungry', bundle('hungry', BUNDLES.hungry)],
    ['unbundled', bundle('unbundled', BUNDLES.unbundled)],
  ]);
  runner = startFunctionRunner({ functions: FUNCTIONS, bundles, environment: () => ({ PATH: process.env.PATH ?? '' }), output: () => undefined });
  gateway = await startGateway({
    port: await freePort(),
    issuer: 'http://127.0.0.1:1/pool',
    jwksUri: 'http://127.0.0.1:1/pool/.well-known/jwks.json',
    audience: 'client',
    allowedOrigins: [],
    runtimeConfig: () => ({}) as never,
    invoke: runner.invoke,
    throttle: false,
    log: () => undefined,
  });
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await runner?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const pricingTiers = async () => {
  const response = await fetch(`${gateway.url}/api/pricing-tiers`);
  return { status: response.status, body: (await response.json()) as { code?: string } };
};

describe('a function in a worker of its own', () => {
  it("keeps answering another function's requests within their timeout while one spins the CPU, and ends the spinning one at its own", async () => {
    expect(await pricingTiers()).toEqual({ status: 200, body: { items: [] } });
    const file = join(scratch, 'spins.txt');
    writeFileSync(file, '');
    // 12 s of CPU in a function whose deployed timeout is 4 s.
    const spinning = runner.invoke('busy', { ms: 12_000, file }).then(
      () => 'returned',
      (error: Error) => error.name,
    );
    await expect.poll(() => statSync(file).size, { timeout: 20_000 }).toBeGreaterThan(20);
    const answers: number[] = [];
    for (let request = 0; request < 8; request++) {
      const answer = await pricingTiers();
      expect(answer.body.code, 'a request held up past its own timeout').not.toBe(GATEWAY_ERROR_CODES.functionTimeout);
      answers.push(answer.status);
    }
    expect(answers).toEqual(Array(8).fill(200));

    // Ended at its timeout with Lambda's error, its worker gone: it appends nothing more.
    expect(await spinning).toBe(FUNCTION_TIMED_OUT);
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    const size = statSync(file).size;
    await new Promise((resolveWait) => setTimeout(resolveWait, 1_500));
    expect(statSync(file).size).toBe(size);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(runner.workers().busy).toBeUndefined();
  }, 90_000);

  it('gets no more heap than its deployed memory: past it, the invocation fails as Lambda reports it', async () => {
    await expect(runner.invoke('hungry', {})).rejects.toMatchObject({ name: 'Runtime.OutOfMemory' });
  }, 60_000);

  it('finds only what its bundle carries: a package that is installed in the project but not in the bundle fails to load', async () => {
    await expect(runner.invoke('unbundled', {})).rejects.toMatchObject({ name: 'Runtime.ImportModuleError', message: expect.stringContaining("'sharp'") });
    // The same bundle inside the project would find node_modules/sharp by walking up: why the twin keeps its bundles out.
    expect(existsSync(join(root, 'node_modules', 'sharp'))).toBe(true);
  }, 60_000);

  it('ends with the twin, even a worker stuck in a loop that never yields', async () => {
    const file = join(scratch, 'orphan.txt');
    writeFileSync(file, '');
    // A process standing in for the twin: a runner that invokes the spinning function, then is killed outright.
    const twin = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `
      const { startFunctionRunner } = await import(${JSON.stringify(join(root, 'lib/local/lambda-runtime.ts'))});
      const runner = startFunctionRunner({
        functions: [{ name: 'busy', kind: 'other', spec: { handler: 'busy', timeoutSeconds: 600 } }],
        bundles: new Map([['busy', ${JSON.stringify(join(scratch, 'busy'))}]]),
        environment: () => ({ PATH: process.env.PATH ?? '' }),
      });
      await runner.invoke('busy', { ms: 600000, file: ${JSON.stringify(file)} });
    `], { cwd: root, stdio: 'ignore' });
    await expect.poll(() => readFileSync(file, 'utf8').includes('\n'), { timeout: 60_000, interval: 200 }).toBe(true);
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    twin.kill('SIGKILL');
    await expect.poll(() => {
      try {
        process.kill(pid, 0);
        return 'running';
      } catch {
        return 'gone';
      }
    }, { timeout: 5_000, interval: 100 }).toBe('gone');
  }, 90_000);
});
