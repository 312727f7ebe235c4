import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** Puts a failed mail back in the queue (failed -> pending; 409 for any other status). */
export function useRetryEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/admin/emails/{id}/retry', { path: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.emailsAll() }),
  });
}
