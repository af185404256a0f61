// What cancelling a video gives back: every output no paid provider has started; on the local engine, everything.
import { describe, expect, it } from 'vitest';
import { refundableOnCancel, type JobItem } from '../../lambdas/data/jobs-repo.js';

const job = (overrides: Partial<JobItem>): JobItem =>
  ({ status: 'generating', output_count: 3, credits_charged: 3, credits_refunded: 0, ...overrides }) as JobItem;

describe('refundableOnCancel', () => {
  it('gives back every output while none has started at a paid provider', () => {
    expect(refundableOnCancel(job({}))).toBe(3);
    expect(refundableOnCancel(job({ paid_outputs_started: [] }))).toBe(3);
  });

  it('keeps the outputs already running at a paid provider, counting a restarted one once', () => {
    expect(refundableOnCancel(job({ paid_outputs_started: [0] }))).toBe(2);
    expect(refundableOnCancel(job({ paid_outputs_started: [0, 2, 0] }))).toBe(1);
    expect(refundableOnCancel(job({ paid_outputs_started: [0, 1, 2] }))).toBe(0);
  });

  it('gives nothing back for a job that already ended', () => {
    expect(refundableOnCancel(job({ status: 'complete' }))).toBe(0);
    expect(refundableOnCancel(job({ status: 'failed' }))).toBe(0);
  });
});
