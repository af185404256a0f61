// Per-user limits: a request rate per named limit (fixed windows counted in DynamoDB, one conditional update per
// request) and a cap on work still running. Beyond a limit the answer is 429 with Retry-After and a message the
// screens show. The figures are the catalogue's USER_LIMITS, which a deployment may override through USER_LIMITS.
//
// Running work is a reservation, never a count: the charge that starts a piece of work takes its place in the same
// transaction (on the condition that the caller is below the cap), and whatever ends the work gives the place back
// (idempotent, so any number of end paths may). The reconciler gives back a place whose work ended without it.
import { RATE_LIMIT_MESSAGE, RATE_LIMIT_MESSAGES, RUNNING_LIMIT_MESSAGES, type RateLimitName, type RunningLimitName } from '../contracts/catalog.js';
import { tooManyRequests } from '../core/errors.js';
import { countRequest, releaseLease, releaseRunning, runningReservation, takeLease } from '../data/limits-repo.js';
import type { LimitedReservation } from './credits.js';
import { log } from '../core/log.js';
import { userLimits } from './limits-config.js';

/** Counts one request against the caller's named rate; refuses it (429, Retry-After = rest of the window) beyond it. */
export async function takeRequest(subject: string, name: RateLimitName, now = Date.now()): Promise<void> {
  const { limit, windowSeconds } = userLimits().rates[name];
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const allowed = await countRequest(`${subject}#${name}#${windowStart}`, limit, windowStart + windowMs);
  if (!allowed) throw rateRefusal(name, limit, windowSeconds, windowStart + windowMs - now);
}

const rateRefusal = (name: RateLimitName, limit: number, windowSeconds: number, msLeft: number) =>
  tooManyRequests('RATE_LIMITED', RATE_LIMIT_MESSAGES[name]?.(limit, windowSeconds) ?? RATE_LIMIT_MESSAGE, msLeft / 1000);

/**
 * Exclusive work with a daily allowance, such as an account export: counts the request against the rate `name` and
 * takes the user's one place for it, both in one transaction (limits-repo's takeLease). Refused with 429 and
 * Retry-After (RATE_LIMITED: the rest of the window; ALREADY_RUNNING: until the running one's lease is over at most).
 * Answers the release to call when the work ends.
 */
export async function takeExclusive(
  userId: string,
  name: RateLimitName,
  holder: string,
  leaseSeconds: number,
  busyMessage: string,
  now = Date.now(),
): Promise<() => Promise<void>> {
  const { limit, windowSeconds } = userLimits().rates[name];
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const outcome = await takeLease(userId, name, holder, { id: `${userId}#${name}#${windowStart}`, limit, windowEndsAt: windowStart + windowMs }, leaseSeconds, now);
  if (outcome === 'rate-limited') throw rateRefusal(name, limit, windowSeconds, windowStart + windowMs - now);
  if (outcome === 'busy') throw tooManyRequests('ALREADY_RUNNING', busyMessage, leaseSeconds / 4);
  return () => releaseLease(userId, name, holder);
}

/** How long a client waits before trying again when its running work is at the cap. */
const RUNNING_RETRY_SECONDS = 15;

/** The place of the work `recordId` under the caller's cap of `name`, taken with its charge (refused at the cap). */
export function runningPlace(userId: string, name: RunningLimitName, recordId: string): LimitedReservation {
  const limit = userLimits().running[name];
  return {
    write: runningReservation(userId, name, recordId, limit),
    refusal: () => tooManyRequests('TOO_MANY_RUNNING', RUNNING_LIMIT_MESSAGES[name](limit), RUNNING_RETRY_SECONDS),
  };
}

/** Gives back the place of the work `recordId`, which has ended; answers whether it still held one. */
export async function endRunning(userId: string, name: RunningLimitName, recordId: string): Promise<boolean> {
  const released = await releaseRunning(userId, name, recordId);
  if (released) log.debug('running place released', { kind: name, recordId });
  return released;
}
