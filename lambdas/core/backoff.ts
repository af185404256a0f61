// The backoff of writes that lose to contention (the credits ledger's retries, and the raw baseline of bench/ledger.ts,
// which must back off exactly like the ledger for the two to be compared).

/** Full jitter: a random wait up to 5 ms × 2^attempt, capped at 80 ms (reached at the fifth attempt). */
export function jitter(attempt: number): number {
  return Math.random() * Math.min(80, 5 * 2 ** Math.min(attempt, 4));
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
