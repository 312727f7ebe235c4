import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TApiKeyCreate, TApiKeyCreated, TApiKeyList } from '#shared/contract/api-keys';
import { api, apiDelete, apiPost } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export function useApiKeys() {
  return useQuery({
    queryKey: queryKeys.apiKeys(),
    queryFn: () => api<TApiKeyList>('/api/account/api-keys'),
    select: (list) => list.keys,
  });
}

/** Creates a key; the answer is the only time its secret is seen. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TApiKeyCreate) => apiPost<TApiKeyCreated>('/api/account/api-keys', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys() }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiDelete<{ ok: true }>(`/api/account/api-keys/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys() }),
  });
}
