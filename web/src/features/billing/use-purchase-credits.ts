import { purchaseCreditsRoute } from '@contracts/payments';
import { type PurchaseCreditsRequest } from '@contracts/api';
import { callRoute } from '@/lib/api';
import { useIdempotentMutation } from '@/lib/idempotent-mutation';
import { useInvalidateLedger } from '@/lib/ledger';
import { useSetBalance } from '@/lib/profile';

/**
 * Buys credits. Each purchase attempt gets a fresh Idempotency-Key; retrying an attempt that failed on the way
 * (network, 5xx) sends the same key again, so the server never grants it twice.
 */
export function usePurchaseCredits() {
  const setBalance = useSetBalance();
  const invalidateLedger = useInvalidateLedger();
  const mutation = useIdempotentMutation({
    send: (credits: number, idempotencyKey) => {
      const body: PurchaseCreditsRequest = { credits };
      return callRoute(purchaseCreditsRoute, { body, idempotencyKey });
    },
    onSuccess: (result) => {
      setBalance(result.newCredits);
      void invalidateLedger();
    },
  });
  return { ...mutation, pendingRetryFor: mutation.pendingRetry };
}
