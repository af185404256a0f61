// Server state of API keys: the list (never the secrets), creating one (its secret is in that answer only) and
// revoking one. Keys are managed only by a signed-in user; the keys themselves call /v1.
import { ApiKeyList, ApiKeySummary, CreatedApiKey } from '@contracts/api-keys';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { useLoadErrorToast } from '@/lib/load-error';
import { useUser } from '@/lib/session-context';

const KEYS_ROOT = 'api-keys';

export function useApiKeys() {
  const user = useUser();
  const query = useQuery({
    queryKey: [KEYS_ROOT, user.userId],
    queryFn: async () => (await apiRequest(ApiKeyList, '/api-keys')).keys,
  });
  useLoadErrorToast(query.error, 'Error', 'Failed to load API keys');
  return query;
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiRequest(CreatedApiKey, '/api-keys', { method: 'POST', body: { name } }),
    onSettled: () => client.invalidateQueries({ queryKey: [KEYS_ROOT] }),
  });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(ApiKeySummary, `/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: [KEYS_ROOT] }),
  });
}
