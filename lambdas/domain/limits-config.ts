// The per-user limits in force: the catalogue's USER_LIMITS with a deployment's overrides (the USER_LIMITS
// environment variable, JSON of the same shape) on top. Pure, so CDK checks the context value at synth.
import * as z from 'zod';
import { USER_LIMITS, type RateLimitName, type RunningLimitName } from '../contracts/catalog.js';

// Built on first use: only a deployment that overrides the limits reads it, so a cold start doesn't build it.
const overridesSchema = () => {
  const Rate = z.object({ limit: z.number().int().positive(), windowSeconds: z.number().int().positive() });
  return z.strictObject({
    rates: z.partialRecord(z.enum(Object.keys(USER_LIMITS.rates) as [RateLimitName, ...RateLimitName[]]), Rate).optional(),
    running: z.partialRecord(z.enum(Object.keys(USER_LIMITS.running) as [RunningLimitName, ...RunningLimitName[]]), z.number().int().positive()).optional(),
  });
};

export interface Limits {
  rates: Record<RateLimitName, { limit: number; windowSeconds: number }>;
  running: Record<RunningLimitName, number>;
}

let configured: Limits | undefined;

/** The limits in force; throws (naming the problem) on an override that isn't of the catalogue's shape. */
export function userLimits(env: NodeJS.ProcessEnv = process.env): Limits {
  if (configured && env === process.env) return configured;
  const overrides = env.USER_LIMITS ? overridesSchema().parse(JSON.parse(env.USER_LIMITS)) : {};
  const limits: Limits = {
    rates: { ...USER_LIMITS.rates, ...overrides.rates },
    running: { ...USER_LIMITS.running, ...overrides.running },
  };
  if (env === process.env) configured = limits;
  return limits;
}
