import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAdminWorkflowDetail, TAdminWorkflowUpdate } from '#shared/contract/admin';
import { apiPatch } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** Edits a workflow, or (with `{ isActive }` alone) activates or deactivates it. */
export function useUpdateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: TAdminWorkflowUpdate }) =>
      apiPatch<TAdminWorkflowDetail>(`/api/admin/workflows/${encodeURIComponent(id)}`, changes),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflows() });
    },
  });
}
