import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TDeleteWorkflowResponse } from '#shared/contract/admin';
import { apiDelete } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** Deletes a workflow and its runs (its ledger rows stay, with no workflow). */
export function useDeleteWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiDelete<TDeleteWorkflowResponse>(`/api/workflows/${encodeURIComponent(id)}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflows() });
    },
  });
}
