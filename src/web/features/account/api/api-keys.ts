import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

export function useApiKeys() {
  return useQuery({
    queryKey: queryKeys.apiKeys(),
    queryFn: () => api.get('/api/account/api-keys'),
    select: (list) => list.keys,
  });
}

/** Creates a key; the answer is the only time its secret is seen. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/account/api-keys', 'post'>) =>
      api.post('/api/account/api-keys', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys() }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete('/api/account/api-keys/{id}', { path: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys() }),
  });
}
