import { CreditSummary, CreditTransaction, ListResponse, PAY_AS_YOU_GO_PLAN } from '@contracts/api';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiRequest } from './api';
import { planName } from './format';
import { useLoadErrorToast } from './load-error';
import { useUser } from './session-context';

const ledgerQueryKey = (userId: string) => ['credit-transactions', userId] as const;

/** The caller's newest credit transactions (the server answers the latest 10). */
export function useCreditTransactions() {
  const user = useUser();
  const query = useQuery({
    queryKey: ledgerQueryKey(user.userId),
    queryFn: async () => (await apiRequest(ListResponse(CreditTransaction), '/credit-transactions')).items,
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load billing data');
  return query;
}

export function useInvalidateLedger() {
  const user = useUser();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: ledgerQueryKey(user.userId) }), [queryClient, user.userId]);
}

/** Totals over the whole ledger (bought, spent, refunded), summed by the server; re-read with the ledger. */
export function useCreditSummary() {
  const user = useUser();
  return useQuery({
    queryKey: [...ledgerQueryKey(user.userId), 'summary'] as const,
    queryFn: () => apiRequest(CreditSummary, '/credit-transactions/summary'),
  });
}

/** The plan cards' name: "Pay as you go" once the user has bought credits, the stored plan ('Free Trial') before. */
export function usePlanName(planId: string | undefined): string {
  const summary = useCreditSummary();
  return summary.data && summary.data.bought > 0 ? PAY_AS_YOU_GO_PLAN : planName(planId);
}
