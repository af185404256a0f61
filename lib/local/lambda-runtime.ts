// How the twin runs a function: as Lambda does, in an execution environment of its own. Each worker is a child
// process (lambda-worker.mjs) that loads one function's deployed bundle (bundles.ts) with that function's environment
// and credentials (grants.ts), V8's heap capped at its deployed memory (--max-old-space-size), and runs one invocation
// at a time. A worker is reused while warm, as Lambda reuses a sandbox. An invocation that finds none idle starts
// another, up to a small pool per function (`workersPerFunction`) and `maxWorkers` for the whole twin (the least
// recently used idle worker of another function makes room), unless a warm worker of its function will be free
// sooner than a new one could start (by the function's recent invocation times and the twin's recent cold starts):
// a twin has a few cores where the cloud has a machine per sandbox, so a burst of quick requests is served by the
// warm workers in turn rather than by as many cold starts at once, while long or stuck invocations never hold up
// the next. An invocation's timeout starts when it runs. A worker idle for `idleMs` ends. An invocation past the function's timeout ends its worker (SIGKILL), so nothing of
// it runs on, and fails with Lambda's Sandbox.Timedout.
//
// The gateway, the Step Functions runner and the stream consumers only dispatch: one function's CPU work (an upscale,
// a cutout) runs on its own process and never holds up another function's request, as in the cloud.
// Lambda's execution environment and its Init, Invoke and Shutdown phases, errors included ("Understanding the Lambda
// execution environment lifecycle", AWS Lambda developer guide, read November 2026).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { functionMemoryMb, functionTimeoutSeconds } from '../function-settings.js';
import type { DeployedFunction } from './deployed-functions.js';

const WORKER_SCRIPT = join(import.meta.dirname, 'lambda-worker.mjs');
/** Lambda gives a function's Init phase 10 s; past that it is tried again within the invocation's own timeout. */
const INIT_MS = 10_000;
const DEFAULT_MAX_WORKERS = 32;
const DEFAULT_WORKERS_PER_FUNCTION = 4;
/** What a cold start is taken to cost until the twin has measured one. */
const INITIAL_COLD_START_MS = 1_000;
const DEFAULT_IDLE_MS = 5 * 60_000;
/**
 * The niceness of background workers (workflow tasks, stream consumers): the lowest, so routes run first
 * (bench/isolation.ts, light-request p99 ratio: 10.9 at the twin's priority, 7.4 at 10, 3.9 at 19).
 */
const BACKGROUND_NICENESS = 19;
/** Whether setpriv can give a worker a parent-death signal (Linux's util-linux). */
const PDEATHSIG = process.platform === 'linux' && spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;

/** What a function wrote: each chunk of its stdout and stderr. */
export type FunctionOutput = (stream: 'stdout' | 'stderr', text: string) => void;

export interface InvokeOptions {
  /** Ends the invocation (and its worker) after this long; default the function's deployed timeout. */
  timeoutMs?: number;
  /** Gets what the function writes during this invocation (besides the runner's `output`). */
  onOutput?: FunctionOutput;
}

/** Runs one invocation of a deployed function (by its twin name): its result, or a FunctionError. */
export type Invoke = (name: string, event: unknown, options?: InvokeOptions) => Promise<unknown>;

/**
 * A failed invocation, as Lambda reports it: `name` is the errorType (the error's own name when the handler threw, so
 * a workflow's Retry and Catch match it as in the cloud; Sandbox.Timedout, Runtime.ExitError, Runtime.ImportModuleError
 * otherwise).
 */
export class FunctionError extends Error {
  constructor(
    readonly errorType: string,
    message: string,
    readonly trace: string[] = [],
  ) {
    super(message);
    this.name = errorType;
  }
}

export const FUNCTION_TIMED_OUT = 'Sandbox.Timedout';

export interface FunctionRunnerOptions {
  functions: readonly DeployedFunction[];
  /** Each function's bundle folder, by its twin name (bundles.ts). */
  bundles: ReadonlyMap<string, string>;
  /** The environment a worker of this function starts with; read each time a worker starts. */
  environment: (fn: DeployedFunction) => Record<string, string>;
  /** Where every worker's output goes (default: this process's stdout and stderr, as Lambda's go to its logs). */
  output?: (fn: DeployedFunction, stream: 'stdout' | 'stderr', text: string) => void;
  /** Workers alive at once, for the whole twin. */
  maxWorkers?: number;
  /** Workers alive at once for one function. */
  workersPerFunction?: number;
  /** How long an idle worker stays warm. */
  idleMs?: number;
}

export interface FunctionRunner {
  invoke: Invoke;
  /** Workers alive now, by function name (for tests and benches). */
  workers(): Record<string, number>;
  /** Ends every worker; invocations still running fail. */
  stop(): Promise<void>;
}

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: FunctionError) => void;
  onOutput?: FunctionOutput;
}

/** One execution environment: a child process holding one function's bundle. */
class Worker {
  readonly ready: Promise<void>;
  readonly startedAt = performance.now();
  /** When its current invocation started (undefined while it loads or is idle). */
  invokedAt?: number;
  isReady = false;
  lastUsed = Date.now();
  busy = false;
  idleTimer?: NodeJS.Timeout;
  #pending?: Pending;
  #exited = false;
  #killed = false;
  #lastOutput = '';
  readonly exited: Promise<void>;

  constructor(
    readonly fn: DeployedFunction,
    readonly environmentKey: string,
    private readonly child: ChildProcess,
    output: (stream: 'stdout' | 'stderr', text: string) => void,
  ) {
    const take = (stream: 'stdout' | 'stderr') => (chunk: Buffer | string) => {
      const text = chunk.toString();
      this.#lastOutput = (this.#lastOutput + text).slice(-2000);
      output(stream, text);
      this.#pending?.onOutput?.(stream, text);
    };
    child.stdout?.on('data', take('stdout'));
    child.stderr?.on('data', take('stderr'));
    this.exited = new Promise((resolveExit) => child.once('exit', () => resolveExit()));
    this.ready = new Promise((resolveReady, rejectReady) => {
      child.on('message', (message: WorkerMessage) => {
        if (message.type === 'ready') {
          this.isReady = true;
          return resolveReady();
        }
        if (message.type === 'init-error') return rejectReady(new FunctionError(message.error.errorType, message.error.errorMessage, message.error.trace));
        if (message.type === 'output') return take(message.stream)(message.text);
        const pending = this.#pending;
        this.#pending = undefined;
        if (message.type === 'result') pending?.resolve(message.result);
        else if (message.type === 'error') pending?.reject(new FunctionError(message.error.errorType, message.error.errorMessage, message.error.trace));
      });
      child.once('exit', (code, signal) => {
        this.#exited = true;
        const error = this.#exitError(code, signal);
        rejectReady(error);
        const pending = this.#pending;
        this.#pending = undefined;
        pending?.reject(error);
      });
    });
    // A load that fails is reported to the invocation waiting for it; nobody else needs to hear of it.
    this.ready.catch(() => undefined);
  }

  get alive(): boolean {
    return !this.#exited && !this.#killed;
  }

  /** As Lambda reports a runtime that died: out of memory, or exited. */
  #exitError(code: number | null, signal: NodeJS.Signals | null): FunctionError {
    if (/heap out of memory|Reached heap limit/i.test(this.#lastOutput)) {
      return new FunctionError('Runtime.OutOfMemory', `RequestId: Error: Runtime exited with error: signal: killed (memory ${functionMemoryMb(this.fn.spec)} MB)`);
    }
    return new FunctionError('Runtime.ExitError', `RequestId: Error: Runtime exited with error: ${signal ? `signal: ${signal}` : `exit status ${code}`}`);
  }

  invoke(event: unknown, timeoutMs: number, onOutput?: FunctionOutput): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending = undefined;
        this.kill();
        reject(new FunctionError(FUNCTION_TIMED_OUT, `RequestId: Error: Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`));
      }, timeoutMs);
      const settle =
        <T>(done: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          done(value);
        };
      this.#pending = { resolve: settle(resolve), reject: settle(reject), onOutput };
      this.child.send({ type: 'invoke', id: randomUUID(), requestId: randomUUID(), event, timeoutMs });
    });
  }

  kill(): void {
    this.#killed = true;
    if (!this.#exited) this.child.kill('SIGKILL');
  }
}

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'init-error'; error: SerializedError }
  | { type: 'output'; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'result'; id: string; result: unknown }
  | { type: 'error'; id: string; error: SerializedError };

interface SerializedError {
  errorType: string;
  errorMessage: string;
  trace: string[];
}

const keyOf = (environment: Record<string, string>) => createHash('sha256').update(JSON.stringify(Object.entries(environment).sort())).digest('hex');

export function startFunctionRunner(options: FunctionRunnerOptions): FunctionRunner {
  const functions = new Map(options.functions.map((fn) => [fn.name, fn]));
  const maxWorkers = options.maxWorkers ?? DEFAULT_MAX_WORKERS;
  const workersPerFunction = options.workersPerFunction ?? DEFAULT_WORKERS_PER_FUNCTION;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const output = options.output ?? ((_fn, stream, text) => void process[stream].write(text));
  const workers = new Set<Worker>();
  const waiting: (() => void)[] = [];
  let stopped = false;

  // Every waiter looks again (each waits for its own function, or for room): in the order they came.
  const wakeAll = () => {
    for (const wake of waiting.splice(0)) wake();
  };

  function retire(worker: Worker): void {
    clearTimeout(worker.idleTimer);
    workers.delete(worker);
    worker.kill();
    wakeAll();
  }

  function spawnWorker(fn: DeployedFunction, environment: Record<string, string>, environmentKey: string): Worker {
    const bundle = options.bundles.get(fn.name);
    if (!bundle) throw new Error(`No bundle for function ${fn.name}`);
    const memoryMb = functionMemoryMb(fn.spec);
    const node = [process.execPath, `--max-old-space-size=${memoryMb}`, WORKER_SCRIPT, bundle, fn.name, String(memoryMb)];
    // Where the system can, the kernel ends the worker when the twin ends (setpriv --pdeathsig, util-linux), whatever
    // the worker is doing; elsewhere the worker watches for it (lambda-worker.mjs).
    const command = PDEATHSIG ? ['setpriv', '--pdeathsig', 'KILL', ...node, 'pdeathsig'] : node;
    const child = spawn(command[0]!, command.slice(1), { cwd: bundle, env: environment, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'json' });
    // In Lambda every sandbox has CPU of its own; the twin's few cores are shared. Workflow tasks and stream consumers
    // (background work: upscales, renders, cutouts) yield the CPU to the routes a person is waiting on, so a cancel or
    // a list is not held behind another seller's 4K upscale (bench/isolation.ts).
    if (fn.kind !== 'route' && child.pid !== undefined) {
      try {
        setPriority(child.pid, BACKGROUND_NICENESS);
      } catch {
        // Not allowed here (a container without the right): the worker runs at the twin's priority.
      }
    }
    const worker = new Worker(fn, environmentKey, child, (stream, text) => output(fn, stream, text));
    workers.add(worker);
    void worker.exited.then(() => {
      if (workers.has(worker)) retire(worker);
    });
    return worker;
  }

  /** Recent durations (exponentially weighted): each function's invocations, and the twin's cold starts. */
  const invocationMs = new Map<DeployedFunction, number>();
  let coldStartMs = INITIAL_COLD_START_MS;
  const weigh = (previous: number | undefined, sample: number) => (previous === undefined ? sample : previous * 0.7 + sample * 0.3);
  const queued = new Map<DeployedFunction, number>();

  /**
   * How long until one of the function's workers is free for one more invocation, by its recent invocation time; none
   * when its workers' invocations have run well past it (a slow or stuck one is no reason to wait).
   */
  function expectedWait(fn: DeployedFunction, own: Worker[], now: number): number | undefined {
    // Before its first invocation has ended, a function's time is taken as nothing: a burst on a new function waits
    // for the worker already starting rather than starting as many more.
    const typical = invocationMs.get(fn) ?? 0;
    const remaining = own.map((worker) => {
      if (!worker.isReady) return Math.max(0, coldStartMs - (now - worker.startedAt)) + typical;
      const elapsed = now - (worker.invokedAt ?? now);
      return elapsed > 2 * typical + 100 ? Infinity : Math.max(0, typical - elapsed);
    });
    const soonest = Math.min(...remaining);
    return Number.isFinite(soonest) ? soonest + ((queued.get(fn) ?? 0) * typical) / own.length : undefined;
  }

  /** A warm worker of the function, or a new one when that is sooner and there is room. */
  async function acquire(fn: DeployedFunction): Promise<Worker> {
    queued.set(fn, (queued.get(fn) ?? 0) + 1);
    try {
      return await acquireInTurn(fn);
    } finally {
      queued.set(fn, queued.get(fn)! - 1);
    }
  }

  async function acquireInTurn(fn: DeployedFunction): Promise<Worker> {
    for (;;) {
      if (stopped) throw new FunctionError('Runtime.ExitError', 'The twin is stopping');
      const environment = options.environment(fn);
      const environmentKey = keyOf(environment);
      const idle = [...workers].filter((worker) => !worker.busy && worker.alive && worker.fn === fn);
      // A worker started with other settings (a knob changed since) is not reused, as Lambda starts new sandboxes
      // after a configuration change.
      for (const stale of idle.filter((worker) => worker.environmentKey !== environmentKey)) retire(stale);
      const warm = idle.filter((worker) => worker.environmentKey === environmentKey).sort((a, b) => b.lastUsed - a.lastUsed)[0];
      if (warm) {
        clearTimeout(warm.idleTimer);
        warm.busy = true;
        return warm;
      }
      const own = [...workers].filter((worker) => worker.fn === fn && worker.alive);
      const wait = own.length ? expectedWait(fn, own, performance.now()) : undefined;
      if (own.length >= workersPerFunction || (wait !== undefined && wait < coldStartMs)) {
        // Looked at again when a worker frees up, or once the expected wait has passed.
        await new Promise<void>((wake) => {
          const timer = setTimeout(wake, Math.min(1_000, Math.max(20, wait ?? 1_000)));
          waiting.push(() => {
            clearTimeout(timer);
            wake();
          });
        });
        continue;
      }
      if (workers.size >= maxWorkers) {
        const leastRecent = [...workers].filter((worker) => !worker.busy).sort((a, b) => a.lastUsed - b.lastUsed)[0];
        if (leastRecent) retire(leastRecent);
        else await new Promise<void>((wake) => waiting.push(wake));
        continue;
      }
      const worker = spawnWorker(fn, environment, environmentKey);
      worker.busy = true;
      return worker;
    }
  }

  function release(worker: Worker): void {
    worker.busy = false;
    worker.lastUsed = Date.now();
    if (!worker.alive || stopped) return retire(worker);
    worker.idleTimer = setTimeout(() => retire(worker), idleMs);
    worker.idleTimer.unref();
    wakeAll();
  }

  const invoke: Invoke = async (name, event, invokeOptions = {}) => {
    const fn = functions.get(name);
    if (!fn) throw new Error(`No deployed function '${name}'`);
    const timeoutMs = invokeOptions.timeoutMs ?? functionTimeoutSeconds(fn.spec) * 1000;
    const worker = await acquire(fn);
    try {
      // Init: loading the bundle. A cold start past Lambda's 10 s Init is tried within the invocation's own timeout.
      if (!worker.isReady) {
        await withDeadline(worker.ready, Math.max(INIT_MS, timeoutMs), () => worker.kill());
        coldStartMs = weigh(coldStartMs, performance.now() - worker.startedAt);
      }
      worker.invokedAt = performance.now();
      const result = await worker.invoke(event, timeoutMs, invokeOptions.onOutput);
      invocationMs.set(fn, weigh(invocationMs.get(fn), performance.now() - worker.invokedAt));
      return result;
    } finally {
      worker.invokedAt = undefined;
      release(worker);
    }
  };

  return {
    invoke,
    workers: () => {
      const counts: Record<string, number> = {};
      for (const worker of workers) if (worker.alive) counts[worker.fn.name] = (counts[worker.fn.name] ?? 0) + 1;
      return counts;
    },
    async stop() {
      stopped = true;
      const all = [...workers];
      for (const worker of all) retire(worker);
      wakeAll();
      await Promise.all(all.map((worker) => worker.exited));
    },
  };
}

/** `work`, or Sandbox.Timedout after `ms` (calling `onTimeout` first). */
async function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new FunctionError(FUNCTION_TIMED_OUT, `RequestId: Error: Task timed out after ${(ms / 1000).toFixed(2)} seconds (Init)`));
    }, ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
