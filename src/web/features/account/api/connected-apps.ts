import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

export function useConnectedApps() {
  return useQuery({
    queryKey: queryKeys.connectedApps(),
    queryFn: () => api.get('/api/account/connected-apps'),
    select: (list) => list.apps,
  });
}

export function useUpdateConnectedApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, monthlyCreditLimit }: { id: string; monthlyCreditLimit: number | null }) =>
      api.patch('/api/account/connected-apps/{id}', { path: { id }, body: { monthlyCreditLimit } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.connectedApps() }),
  });
}

export function useDisconnectApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete('/api/account/connected-apps/{id}', { path: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.connectedApps() }),
  });
}
