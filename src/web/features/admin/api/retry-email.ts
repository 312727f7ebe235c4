import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** Puts a failed mail back in the queue (failed -> pending; 409 for any other status). */
export function useRetryEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiPost<unknown>(`/api/admin/emails/${encodeURIComponent(id)}/retry`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.emailsAll() }),
  });
}
