import { createCheckoutSessionRoute, listPurchasesRoute, requestRefundRoute } from '@contracts/payments';
import { type CheckoutRequest, type PaymentMode, type RuntimeConfig } from '@contracts/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from '@/lib/api';
import { useIdempotentMutation } from '@/lib/idempotent-mutation';
import { useInvalidateLedger } from '@/lib/ledger';
import { useLoadErrorToast } from '@/lib/load-error';
import { useSetBalance } from '@/lib/profile';
import { useUser } from '@/lib/session-context';

/** How this deployment takes payments; a config.json from before payment modes says it with testPayments only. */
export function paymentModeOf(config: RuntimeConfig): PaymentMode {
  return config.payments ?? (config.testPayments ? 'test' : 'off');
}

export const purchasesQueryKey = (userId: string) => ['credit-purchases', userId] as const;

/** The caller's purchases with their receipts, newest first. */
export function usePurchases(options: { refetchInterval?: number | false } = {}) {
  const user = useUser();
  const query = useQuery({
    queryKey: purchasesQueryKey(user.userId),
    queryFn: async () => (await callRoute(listPurchasesRoute)).items,
    refetchInterval: options.refetchInterval,
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load your receipts');
  return query;
}

/**
 * Opens a Stripe Checkout Session and goes there. One Idempotency-Key per attempt, reused when the same amount is
 * tried again after a failure on the way, so a retry opens the same session.
 */
export function useCheckout() {
  return useIdempotentMutation({
    send: (credits: number, idempotencyKey) => {
      const body: CheckoutRequest = { credits };
      return callRoute(createCheckoutSessionRoute, { body, idempotencyKey });
    },
    onSuccess: (session) => {
      window.location.assign(session.url);
    },
  });
}

export function useRefundPurchase() {
  const user = useUser();
  const queryClient = useQueryClient();
  const setBalance = useSetBalance();
  const invalidateLedger = useInvalidateLedger();
  return useMutation({
    mutationFn: (transactionId: string) => callRoute(requestRefundRoute, { body: { transactionId } }),
    onSuccess: (result) => setBalance(result.newCredits),
    onSettled: () => {
      void invalidateLedger();
      void queryClient.invalidateQueries({ queryKey: purchasesQueryKey(user.userId) });
    },
  });
}
