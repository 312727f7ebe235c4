import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { refreshMe } from '#web/lib/session';

/**
 * Opens a run (or the person's unsent run of the workflow again); nothing is charged until the answers or a
 * chat's first message are sent. A 402 means the balance is below the price: the session user (its balance)
 * is read again.
 */
export function useStartExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/executions/start', 'post'>) =>
      api.post('/api/executions/start', { body }),
    onSettled: () => refreshMe(queryClient),
  });
}
