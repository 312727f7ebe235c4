import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** "Retry delivery now": a running run whose retry is scheduled is delivered at once (409 otherwise). */
export function useRetryDelivery(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/admin/executions/{id}/retry-delivery', { path: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.run(id) }),
  });
}
