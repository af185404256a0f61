// The per-user limits a deployment runs with: the catalogue's, overridden only in the catalogue's own shape.
import { describe, expect, it } from 'vitest';
import { USER_LIMITS } from '../../lambdas/contracts/catalog.js';
import { userLimits } from '../../lambdas/domain/limits-config.js';

describe('userLimits', () => {
  it('is the catalogue without overrides', () => {
    expect(userLimits({})).toEqual(USER_LIMITS);
  });

  it('takes overrides of single figures and keeps the rest', () => {
    const limits = userLimits({ USER_LIMITS: JSON.stringify({ rates: { spending: { limit: 50, windowSeconds: 10 } }, running: { video: 3 } }) });
    expect(limits.rates.spending).toEqual({ limit: 50, windowSeconds: 10 });
    expect(limits.rates.imports).toEqual(USER_LIMITS.rates.imports);
    expect(limits.running).toEqual({ ...USER_LIMITS.running, video: 3 });
  });

  it('refuses an unknown limit or a figure that is not a positive whole number', () => {
    expect(() => userLimits({ USER_LIMITS: JSON.stringify({ running: { videos: 3 } }) })).toThrow();
    expect(() => userLimits({ USER_LIMITS: JSON.stringify({ running: { video: 0 } }) })).toThrow();
    expect(() => userLimits({ USER_LIMITS: JSON.stringify({ burst: 10 }) })).toThrow();
  });
});
