// The webhooks of the API screen: endpoints, the delivery log (read again every few seconds while shown, and after
// every action), and the actions themselves.
import { createWebhookRoute, deleteWebhookRoute, listWebhookDeliveriesRoute, listWebhooksRoute, sendWebhookTestRoute } from '@contracts/webhooks';
import {
  type CreateWebhookRequest,
} from '@contracts/webhooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from '@/lib/api';
import { useLoadErrorToast } from '@/lib/load-error';
import { useUser } from '@/lib/session-context';

/** Deliveries are retried by the server on its own schedule: the log is read again this often while it is shown. */
export const DELIVERY_LOG_REFRESH_MS = 3_000;

const endpointsKey = (userId: string) => ['webhooks', userId] as const;
const deliveriesKey = (userId: string) => ['webhook-deliveries', userId] as const;

export function useWebhookEndpoints() {
  const user = useUser();
  const query = useQuery({
    queryKey: endpointsKey(user.userId),
    queryFn: async () => (await callRoute(listWebhooksRoute)).items,
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load your webhook endpoints');
  return query;
}

export function useWebhookDeliveries() {
  const user = useUser();
  const query = useQuery({
    queryKey: deliveriesKey(user.userId),
    queryFn: async () => (await callRoute(listWebhookDeliveriesRoute)).items,
    refetchInterval: DELIVERY_LOG_REFRESH_MS,
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load the webhook delivery log');
  return query;
}

function useRefreshWebhooks() {
  const user = useUser();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: endpointsKey(user.userId) }),
      queryClient.invalidateQueries({ queryKey: deliveriesKey(user.userId) }),
    ]);
}

export function useCreateWebhook() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: (request: CreateWebhookRequest) => callRoute(createWebhookRoute, { body: request }),
    onSettled: () => void refresh(),
  });
}

export function useDeleteWebhook() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: (id: string) => callRoute(deleteWebhookRoute, { params: { id } }),
    onSettled: () => void refresh(),
  });
}

export function useSendTestEvent() {
  const refresh = useRefreshWebhooks();
  return useMutation({
    mutationFn: (id: string) => callRoute(sendWebhookTestRoute, { params: { id } }),
    onSettled: () => void refresh(),
  });
}
