// Fault knob of the local engine for the chaos suite (scripts/chaos.ts): MODELLOOP_LOCAL_ENGINE_FAULTS makes a share
// of the engine's calls fail the ways a real provider or runtime does, e.g.
//   MODELLOOP_LOCAL_ENGINE_FAULTS='transient=0.1,permanent=0.05,slow=0.03,crash=0.05,slowMs=900000'
//   transient  a ProviderError 'transient' (throttling, 5xx): the workflows retry it
//   permanent  a ProviderError 'failed': the record fails and is refunded
//   slow       the call hangs `slowMs` (default 15 minutes, past every task's 300 s timeout) before it answers
//   crash      an unexpected exception, as a bug or a dying runtime throws
// Each call draws once; the rates are shares of all calls (their sum at most 1). Every injected fault is a warn log line
// `local engine fault injected` with its kind, which the chaos suite counts. Only the local engine reads the variable,
// and never inside a Lambda runtime (the cloud stack does not set it either): it cannot be switched on in the cloud.
import { log } from '../../core/log.js';
import { ProviderError, type LocalEngine } from '../ports.js';

export const LOCAL_ENGINE_FAULTS_ENV = 'MODELLOOP_LOCAL_ENGINE_FAULTS';
export const FAULT_KINDS = ['transient', 'permanent', 'slow', 'crash'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
export const FAULT_LOG_MESSAGE = 'local engine fault injected';

export interface FaultRates {
  rates: Record<FaultKind, number>;
  slowMs: number;
}

const DEFAULT_SLOW_MS = 15 * 60_000;

/** The rates of the variable; undefined when it is unset, empty or inside a Lambda runtime. Throws on a malformed value. */
export function faultRatesFromEnv(env: NodeJS.ProcessEnv = process.env): FaultRates | undefined {
  const raw = env[LOCAL_ENGINE_FAULTS_ENV]?.trim();
  if (!raw) return undefined;
  if (env.AWS_LAMBDA_RUNTIME_API || env.AWS_LAMBDA_FUNCTION_NAME) {
    log.warn('local engine faults ignored inside a Lambda runtime', { variable: LOCAL_ENGINE_FAULTS_ENV });
    return undefined;
  }
  const rates: Record<FaultKind, number> = { transient: 0, permanent: 0, slow: 0, crash: 0 };
  let slowMs = DEFAULT_SLOW_MS;
  for (const part of raw.split(',')) {
    const [name, value] = part.split('=').map((piece) => piece.trim());
    const number = Number(value);
    if (!name || value === undefined || value === '' || !Number.isFinite(number) || number < 0) {
      throw new Error(`Invalid configuration: ${LOCAL_ENGINE_FAULTS_ENV} entry '${part}' is not name=number`);
    }
    if (name === 'slowMs') slowMs = number;
    else if ((FAULT_KINDS as readonly string[]).includes(name)) rates[name as FaultKind] = number;
    else throw new Error(`Invalid configuration: ${LOCAL_ENGINE_FAULTS_ENV} knows ${FAULT_KINDS.join(', ')} and slowMs, not '${name}'`);
  }
  if (Object.values(rates).reduce((sum, rate) => sum + rate, 0) > 1) {
    throw new Error(`Invalid configuration: the rates of ${LOCAL_ENGINE_FAULTS_ENV} add up to more than 1`);
  }
  return { rates, slowMs };
}

/** Which fault (if any) a draw in [0, 1) picks. */
export function pickFault(rates: Record<FaultKind, number>, draw: number): FaultKind | undefined {
  let bound = 0;
  for (const kind of FAULT_KINDS) {
    bound += rates[kind];
    if (draw < bound) return kind;
  }
  return undefined;
}

async function withFault<T>(config: FaultRates, call: string, run: () => Promise<T>, random: () => number): Promise<T> {
  const kind = pickFault(config.rates, random());
  if (!kind) return run();
  log.warn(FAULT_LOG_MESSAGE, { kind, call });
  switch (kind) {
    case 'transient':
      throw new ProviderError('transient', 'The local engine is busy (an injected fault). Please try again.');
    case 'permanent':
      throw new ProviderError('failed', 'The local engine failed this request (an injected fault).');
    case 'crash':
      throw new TypeError(`Cannot read properties of undefined (an injected crash of the local engine's ${call})`);
    case 'slow':
      await new Promise((resolveSlow) => setTimeout(resolveSlow, config.slowMs));
      return run();
  }
}

/** The engine with faults injected into every call, when the knob is set; the engine itself otherwise. */
export function withInjectedFaults(engine: LocalEngine, config = faultRatesFromEnv(), random: () => number = Math.random): LocalEngine {
  if (!config) return engine;
  const video = engine.video;
  return {
    onModelImage: { generate: (request) => withFault(config, 'onModelImage', () => engine.onModelImage.generate(request), random) },
    edit: { edit: (request) => withFault(config, 'edit', () => engine.edit.edit(request), random) },
    upscale: { upscale: (request) => withFault(config, 'upscale', () => engine.upscale.upscale(request), random) },
    video: {
      start: (request) => withFault(config, 'video', () => video.start(request), random),
      check: (operationName) => video.check(operationName),
    },
  };
}
