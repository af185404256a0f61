// Structured JSON log lines through Powertools for AWS Lambda's Logger (CloudWatch in the cloud, the terminal
// locally). Each invocation logs through its own child logger, kept in an AsyncLocalStorage so concurrent requests of
// the twin (which runs every handler in one process) never mix their keys: the request id, the route, the caller as
// a hash of their user id (never the e-mail or a token), and the generation, job or batch id once known. The level
// comes from POWERTOOLS_LOG_LEVEL or LOG_LEVEL (tests run at warn), debug sampling from POWERTOOLS_LOGGER_SAMPLE_RATE,
// and POWERTOOLS_DEV prints indented lines for people. Nothing here ever logs headers, query strings or bodies.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';

type Fields = Record<string, unknown>;

/** The service every log line and metric names (POWERTOOLS_SERVICE_NAME, set to the same by CDK). */
export const SERVICE_NAME = 'modelloop';

// Made at first use, not at import: the twin sets its environment (POWERTOOLS_DEV, the level) before it runs a handler.
let base: Logger | undefined;
const LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
/** POWERTOOLS_LOG_LEVEL, else LOG_LEVEL (which Powertools alone would not read: the tests and benches set it), else INFO. */
function levelOf(env: NodeJS.ProcessEnv): (typeof LEVELS)[number] {
  const wanted = (env.POWERTOOLS_LOG_LEVEL || env.LOG_LEVEL || 'INFO').toUpperCase();
  return LEVELS.find((level) => level === wanted) ?? 'INFO';
}
const root = (): Logger => (base ??= new Logger({ serviceName: SERVICE_NAME, logLevel: levelOf(process.env) }));
const invocation = new AsyncLocalStorage<Logger>();
const current = (): Logger => invocation.getStore() ?? root();

export const log = {
  debug: (message: string, fields: Fields = {}) => current().debug(message, fields),
  info: (message: string, fields: Fields = {}) => current().info(message, fields),
  warn: (message: string, fields: Fields = {}) => current().warn(message, fields),
  error: (message: string, fields: Fields = {}) => current().error(message, fields),
};

/** A stable pseudonym of a user id for log lines: the same user is followed across lines without naming them. */
export function userHash(userId: string): string {
  return createHash('sha256').update(`modelloop-user\n${userId}`).digest('hex').slice(0, 16);
}

/** The correlation keys of one invocation. `userId` is logged only as `userHash`. */
export interface LogKeys {
  requestId?: string;
  route?: string;
  task?: string;
  userId?: string;
  generationId?: string;
  jobId?: string;
  batchId?: string;
}

function keysOf({ userId, ...rest }: LogKeys): Fields {
  const keys: Fields = { ...rest, ...(userId ? { userHash: userHash(userId) } : {}) };
  return Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== undefined && value !== ''));
}

/**
 * Runs one invocation with its own logger carrying `keys` on every line. The child decides debug sampling afresh,
 * so POWERTOOLS_LOGGER_SAMPLE_RATE=0.1 logs about one invocation in ten at debug level, whole.
 */
export function withLogKeys<T>(keys: LogKeys, run: () => Promise<T>): Promise<T> {
  return invocation.run(root().createChild({ persistentKeys: keysOf(keys) }), run);
}

/** Adds keys to the current invocation's lines (a caller once verified, a record id once made); none outside one. */
export function appendLogKeys(keys: LogKeys): void {
  invocation.getStore()?.appendPersistentKeys(keysOf(keys));
}
