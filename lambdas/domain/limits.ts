// Per-user limits: a request rate per named limit (fixed windows counted in DynamoDB, one conditional update per
// request) and a cap on work still running. Beyond a limit the answer is 429 with Retry-After and a message the
// screens show. The figures are the catalogue's USER_LIMITS, which a deployment may override through USER_LIMITS.
import * as z from 'zod';
import {
  RATE_LIMIT_MESSAGE,
  RUNNING_LIMIT_MESSAGES,
  USER_LIMITS,
  type RateLimitName,
  type RunningLimitName,
} from '../contracts/catalog.js';
import { tooManyRequests } from '../core/errors.js';
import { countRequest } from '../data/limits-repo.js';

const Rate = z.object({ limit: z.number().int().positive(), windowSeconds: z.number().int().positive() });
const Overrides = z.object({
  rates: z.record(z.string(), Rate).optional(),
  running: z.record(z.string(), z.number().int().positive()).optional(),
});

interface Limits {
  rates: Record<RateLimitName, { limit: number; windowSeconds: number }>;
  running: Record<RunningLimitName, number>;
}

let configured: Limits | undefined;

/** The limits in force: the catalogue's, with the deployment's USER_LIMITS (JSON of the same shape) on top. */
export function userLimits(env: NodeJS.ProcessEnv = process.env): Limits {
  if (configured && env === process.env) return configured;
  const overrides = env.USER_LIMITS ? Overrides.parse(JSON.parse(env.USER_LIMITS)) : {};
  const limits: Limits = {
    rates: { ...USER_LIMITS.rates, ...(overrides.rates as Partial<Limits['rates']>) },
    running: { ...USER_LIMITS.running, ...(overrides.running as Partial<Limits['running']>) },
  };
  if (env === process.env) configured = limits;
  return limits;
}

/** Counts one request against the caller's named rate; refuses it (429, Retry-After = rest of the window) beyond it. */
export async function takeRequest(subject: string, name: RateLimitName, now = Date.now()): Promise<void> {
  const { limit, windowSeconds } = userLimits().rates[name];
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const allowed = await countRequest(`${subject}#${name}#${windowStart}`, limit, windowStart + windowMs);
  if (!allowed) throw tooManyRequests('RATE_LIMITED', RATE_LIMIT_MESSAGE, (windowStart + windowMs - now) / 1000);
}

/** How long a client waits before trying again when its running work is at the cap. */
const RUNNING_RETRY_SECONDS = 15;

/** Refuses new work while `running` pieces of that kind are still in progress at the cap. */
export function checkRunning(name: RunningLimitName, running: number): void {
  const limit = userLimits().running[name];
  if (running >= limit) throw tooManyRequests('TOO_MANY_RUNNING', RUNNING_LIMIT_MESSAGES[name](limit), RUNNING_RETRY_SECONDS);
}
