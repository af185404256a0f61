// Server state of API keys: the list (never the secrets), creating one (its secret is in that answer only) and
// revoking one. Keys are managed only by a signed-in user; the keys themselves call /v1.
import { createApiKeyRoute, listApiKeysRoute, revokeApiKeyRoute } from '@contracts/api-keys';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callRoute } from '@/lib/api';
import { useLoadErrorToast } from '@/lib/load-error';
import { useUser } from '@/lib/session-context';

const KEYS_ROOT = 'api-keys';

export function useApiKeys() {
  const user = useUser();
  const query = useQuery({
    queryKey: [KEYS_ROOT, user.userId],
    queryFn: async () => (await callRoute(listApiKeysRoute)).keys,
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load API keys');
  return query;
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => callRoute(createApiKeyRoute, { body: { name } }),
    onSettled: () => client.invalidateQueries({ queryKey: [KEYS_ROOT] }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callRoute(revokeApiKeyRoute, { params: { id } }),
    onSettled: () => client.invalidateQueries({ queryKey: [KEYS_ROOT] }),
  });
}
