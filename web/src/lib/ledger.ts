import { getCreditSummaryRoute, listCreditTransactionsRoute } from '@contracts/api';
import { PAY_AS_YOU_GO_PLAN } from '@contracts/api';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callRoute } from './api';
import { planName } from './format';
import { useLoadErrorToast } from './load-error';
import { useUser } from './session-context';

/** Every ledger query starts with this key: the list and the totals are read again together. */
export const ledgerQueryKey = (userId: string) => ['credit-transactions', userId] as const;

/** The caller's newest credit transactions (the server answers the latest 10). */
export const creditTransactionsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ledgerQueryKey(userId),
    queryFn: async () => (await callRoute(listCreditTransactionsRoute)).items,
  });

export function useCreditTransactions() {
  const user = useUser();
  const query = useQuery(creditTransactionsQueryOptions(user.userId));
  useLoadErrorToast(query.error, 'Error', 'Failed to load billing data');
  return query;
}

export function useInvalidateLedger() {
  const user = useUser();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: ledgerQueryKey(user.userId) }), [queryClient, user.userId]);
}

/** Totals over the whole ledger (bought, spent, refunded), summed by the server; re-read with the ledger. */
export const creditSummaryQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: [...ledgerQueryKey(userId), 'summary'] as const,
    queryFn: () => callRoute(getCreditSummaryRoute),
  });

export function useCreditSummary() {
  const user = useUser();
  return useQuery(creditSummaryQueryOptions(user.userId));
}

/** The plan cards' name: "Pay as you go" once the user has bought credits, the stored plan ('Free Trial') before. */
export function usePlanName(planId: string | undefined): string {
  const summary = useCreditSummary();
  return summary.data && summary.data.bought > 0 ? PAY_AS_YOU_GO_PLAN : planName(planId);
}
