import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** Deletes a workflow and its runs (its ledger rows stay, with no workflow). */
export function useDeleteWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete('/api/workflows/{id}', { path: { id } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflows() });
    },
  });
}
