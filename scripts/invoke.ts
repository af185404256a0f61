// `npm run invoke -- <function> [--event file.json | --body '{…}'] [--as email] [--path-param id=…] [--query k=v]
//                    [--header k=v] [--password p] [--watch]`
// Runs one function of the project — a route, a workflow task, workflow-ended or a realtime function — with one event,
// against the running twin (`npm start`) or a throw-away one, as `sam local invoke` does for SAM: from the bundle that
// deploys (built now if its code changed), in a worker of its own with its environment, credentials and timeout, as
// the twin runs it. A route gets the payload v2 event the local gateway builds; --as signs in (or creates) a real
// cognito-local user and hands the handler the claims of its verified token. Prints the response, the function's log
// lines and the time.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createIdTokenVerifier, ID_TOKEN_ENV } from '../lambdas/core/jwt.js';
import { ensureBundles } from '../lib/local/bundles.js';
import { deployedFunction, taskFunctionName } from '../lib/local/deployed-functions.js';
import { findFunction, sampleEvent, unknownFunctionMessage, type KnownFunction } from '../lib/local/functions.js';
import { routeEvent } from '../lib/local/route-samples.js';
import { SAMPLE_USER } from '../lib/local/sample-identity.js';
import { claimsOf } from '../lib/local/gateway.js';
import { FunctionError } from '../lib/local/lambda-runtime.js';
import { findRunningTwin, startTwin, startTwinFunctions, type TwinInfo } from '../lib/local/twin.js';
import { DEFAULT_PASSWORD, signInOrCreate } from '../lib/local/users.js';

const root = resolve(import.meta.dirname, '..');
/** Set by --watch for its runs: the twin the watcher holds. */
const TWIN_INFO_ENV = 'MODELLOOP_TWIN_INFO';

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    event: { type: 'string', short: 'e' },
    body: { type: 'string', short: 'b' },
    as: { type: 'string' },
    password: { type: 'string' },
    'path-param': { type: 'string', multiple: true },
    query: { type: 'string', multiple: true },
    header: { type: 'string', multiple: true },
    watch: { type: 'boolean', short: 'w' },
  },
});

interface TwinHandle {
  info: TwinInfo;
  /** Where it came from, for the header line. */
  origin: string;
  stop(): Promise<void>;
}

/** The running twin (npm start), the watcher's, or a throw-away one in a temporary directory. */
async function connectTwin(): Promise<TwinHandle> {
  const given = process.env[TWIN_INFO_ENV];
  if (given) return { info: JSON.parse(readFileSync(given, 'utf8')) as TwinInfo, origin: 'the watcher’s twin', stop: async () => undefined };
  const dataDir = resolve(root, process.env.MODELLOOP_DATA_DIR ?? '.data');
  const running = await findRunningTwin(dataDir);
  if (running) return { info: running, origin: `the running twin at ${running.webUrl}`, stop: async () => undefined };
  const scratch = mkdtempSync(join(tmpdir(), 'modelloop-invoke-'));
  console.error('No twin is running (npm start): starting a throw-away one…');
  const twin = await startTwin({ dataDir: scratch });
  return {
    info: twin.info,
    origin: 'a throw-away twin (work it started ends with this command)',
    stop: async () => {
      await twin.stop();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}

function pairs(list: string[] | undefined, flag: string): Record<string, string> {
  return Object.fromEntries(
    (list ?? []).map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`${flag} takes name=value, got '${pair}'`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`--body is not JSON: ${text}`);
  }
}

interface Caller {
  email: string;
  sub: string;
  idToken: string;
  claims: Record<string, string>;
}

/** A real user of the twin's cognito-local, and the claims of its token as the JWT authorizer verifies them. */
async function callerFor(info: TwinInfo, email: string): Promise<Caller> {
  const user = await signInOrCreate(info, email, options.password ?? DEFAULT_PASSWORD);
  if (user.created) console.error(`Created and confirmed ${email} (password ${user.password}) on the twin.`);
  const verifier = createIdTokenVerifier({
    issuer: info.env[ID_TOKEN_ENV.issuer]!,
    audience: info.env[ID_TOKEN_ENV.audience]!,
    jwksUri: info.env[ID_TOKEN_ENV.jwksUri]!,
  });
  return { email, sub: user.sub, idToken: user.idToken, claims: claimsOf(await verifier.verify(user.idToken)) };
}

async function buildEvent(fn: KnownFunction, info: TwinInfo, caller: Caller | undefined): Promise<unknown> {
  const base: unknown = options.event ? JSON.parse(readFileSync(resolve(options.event), 'utf8')) : await sampleEvent(fn.name, info.env);
  if (fn.route) {
    // Rebuilt from its parts with the gateway's builder, so an edited file still becomes exactly what the gateway sends.
    const event = base as APIGatewayProxyEventV2WithJWTAuthorizer;
    const fileBody = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : undefined;
    const headers = { ...event.headers, ...pairs(options.header, '--header') } as Record<string, string>;
    if (caller) headers.authorization = `Bearer ${caller.idToken}`;
    return routeEvent(
      fn.route,
      {
        body: options.body !== undefined ? parseBody(options.body) : fileBody,
        query: { ...(event.queryStringParameters as Record<string, string> | undefined), ...pairs(options.query, '--query') },
        params: { ...(event.pathParameters as Record<string, string> | undefined), ...pairs(options['path-param'], '--path-param') },
        headers,
      },
      caller?.claims ?? event.requestContext?.authorizer?.jwt?.claims as Record<string, string> | undefined,
    );
  }
  let event = options.body !== undefined ? parseBody(options.body) : base;
  if (caller) {
    // The sample's user becomes the signed-in one; the authorizer's sample gets the real token.
    event = JSON.parse(JSON.stringify(event).replaceAll(SAMPLE_USER.sub, caller.sub).replace(/<a Cognito ID token[^>]*>/, caller.idToken));
  }
  return event;
}

/** Runs the function's bundle in a worker of its own, as the twin does, with everything it writes kept as its log lines. */
async function run(fn: KnownFunction, event: unknown, twin: TwinInfo): Promise<{ result?: unknown; error?: Error; logs: string[]; ms: number }> {
  const deployed = deployedFunction(fn.workflow && fn.state ? taskFunctionName(fn.workflow, fn.state) : fn.name);
  const bundles = await ensureBundles([deployed], { progress: (line) => console.error(line) });
  const runner = startTwinFunctions({
    functions: [deployed],
    bundles,
    environment: () => ({ ...process.env, ...twin.env }),
    log: (source, line) => console.error(`[${source}] ${line}`),
    output: () => undefined,
  });
  let written = '';
  const started = performance.now();
  try {
    const result = await runner.invoke(deployed.name, event, { onOutput: (_stream, text) => (written += text) });
    return { result, logs: lines(written), ms: performance.now() - started };
  } catch (error) {
    return { error: error instanceof Error ? error : new Error(String(error)), logs: lines(written), ms: performance.now() - started };
  } finally {
    await runner.stop();
  }
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

function printResponse(fn: KnownFunction, outcome: Awaited<ReturnType<typeof run>>): void {
  if (outcome.error) {
    console.log(`✗ ${outcome.error.name}: ${outcome.error.message}`);
    if (outcome.error instanceof FunctionError && outcome.error.trace.length) console.log(outcome.error.trace.slice(1).join('\n'));
    console.log('  (a task that throws fails its state: the workflow retries or catches it by this error name)');
  } else if (fn.route || isHttpResult(outcome.result)) {
    const result = outcome.result as APIGatewayProxyStructuredResultV2;
    console.log(`HTTP ${result.statusCode ?? 200}`);
    for (const [name, value] of Object.entries(result.headers ?? {})) console.log(`${name}: ${value}`);
    const body = result.body ? (result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body) : '';
    console.log('');
    try {
      console.log(body ? pretty(JSON.parse(body)) : '(no body)');
    } catch {
      console.log(body);
    }
  } else {
    console.log('✓ returned');
    console.log(outcome.result === undefined ? '(nothing)' : pretty(outcome.result));
  }
  console.log(`\n── log lines (${outcome.logs.length})`);
  for (const line of outcome.logs) console.log(line);
  console.log(`\n── duration ${outcome.ms.toFixed(0)} ms`);
}

function isHttpResult(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'statusCode' in value;
}

async function invokeOnce(fn: KnownFunction): Promise<number> {
  const twin = await connectTwin();
  try {
    const caller = options.as ? await callerFor(twin.info, options.as) : undefined;
    const event = await buildEvent(fn, twin.info, caller);
    const what = fn.route ? `${fn.route.method} ${(event as { rawPath: string }).rawPath}` : fn.workflow ? `${fn.workflow} workflow, state ${fn.state}` : fn.kind;
    console.log(`▶ ${fn.name} (${what})${caller ? ` as ${caller.email}` : ''} on ${twin.origin}\n`);
    const outcome = await run(fn, event, twin.info);
    printResponse(fn, outcome);
    return outcome.error ? 1 : 0;
  } finally {
    await twin.stop();
  }
}

/** --watch: one twin for the whole session; each change under lambdas/ (or of the event file) runs the function again. */
async function watchAndRerun(): Promise<never> {
  const twin = await connectTwin();
  const infoFile = join(mkdtempSync(join(tmpdir(), 'modelloop-watch-')), 'twin.json');
  writeFileSync(infoFile, JSON.stringify(twin.info));
  const args = process.argv.slice(2).filter((arg) => arg !== '--watch' && arg !== '-w');
  let child: ChildProcess | undefined;
  let timer: NodeJS.Timeout | undefined;
  const rerun = () => {
    child?.kill('SIGTERM');
    console.log(`\n═══ ${new Date().toLocaleTimeString()} ═══`);
    // A fresh process per run, so every module is loaded again from the changed source.
    child = spawn(process.execPath, [...process.execArgv, import.meta.filename, ...args], {
      stdio: 'inherit',
      env: { ...process.env, [TWIN_INFO_ENV]: infoFile },
    });
  };
  const schedule = (changed?: string | null) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (changed) console.log(`\nchanged: ${changed}`);
      rerun();
    }, 200);
  };
  const watchers = [watch(join(root, 'lambdas'), { recursive: true }, (_, file) => schedule(file && join('lambdas', file)))];
  if (options.event) watchers.push(watch(resolve(options.event), () => schedule(relative(process.cwd(), resolve(options.event!)))));
  rerun();
  console.error(`Watching lambdas/${options.event ? ` and ${options.event}` : ''}; Ctrl-C stops.`);
  const stop = async () => {
    watchers.forEach((watcher) => watcher.close());
    child?.kill('SIGTERM');
    await twin.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise<never>(() => undefined);
}

async function main(): Promise<number> {
  const name = positionals[0];
  if (!name) {
    console.error('Usage: npm run invoke -- <function> [--event file.json | --body JSON] [--as email] [--path-param k=v] [--query k=v] [--header k=v] [--watch]\n');
    console.error(unknownFunctionMessage('').split('\n').slice(1).join('\n'));
    return 2;
  }
  const fn = findFunction(name);
  if (!fn) {
    console.error(unknownFunctionMessage(name));
    return 2;
  }
  if (options.watch) return watchAndRerun();
  return invokeOnce(fn);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`invoke failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
