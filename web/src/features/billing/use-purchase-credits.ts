import { PurchaseCreditsResponse } from '@contracts/api';
import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { ApiError, apiRequest, newIdempotencyKey } from '@/lib/api';
import { useInvalidateLedger } from '@/lib/ledger';
import { useSetBalance } from '@/lib/profile';

interface Attempt {
  credits: number;
  key: string;
}

/** A failure after which the same attempt may be sent again: the server may or may not have seen it. */
const isRetryable = (error: unknown) => !(error instanceof ApiError) || error.status >= 500 || error.status === 429;

/**
 * Buys credits. Each purchase attempt gets a fresh Idempotency-Key; retrying an attempt that failed on the way
 * (network, 5xx) sends the same key again, so the server never grants it twice.
 */
export function usePurchaseCredits() {
  const attempt = useRef<Attempt | null>(null);
  const setBalance = useSetBalance();
  const invalidateLedger = useInvalidateLedger();

  const mutation = useMutation({
    mutationFn: (credits: number) => {
      if (attempt.current?.credits !== credits) attempt.current = { credits, key: newIdempotencyKey() };
      return apiRequest(PurchaseCreditsResponse, '/credits/purchase', {
        method: 'POST',
        body: { credits },
        idempotencyKey: attempt.current.key,
      });
    },
    onSuccess: (result) => {
      attempt.current = null;
      setBalance(result.newCredits);
      void invalidateLedger();
    },
    onError: (error) => {
      if (!isRetryable(error)) attempt.current = null;
    },
  });

  const pendingRetryFor = mutation.isError && attempt.current ? attempt.current.credits : undefined;
  return { ...mutation, pendingRetryFor };
}
