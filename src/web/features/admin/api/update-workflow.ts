import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAdminWorkflowDetail, TAdminWorkflowUpdate } from '../../../../shared/contract/admin';
import { apiPatch } from '../../../lib/api';
import { ADMIN_KEY, PUBLIC_WORKFLOWS_KEY } from './admin-keys';

/** Edits a workflow, or (with `{ isActive }` alone) activates or deactivates it. */
export function useUpdateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: TAdminWorkflowUpdate }) =>
      apiPatch<TAdminWorkflowDetail>(`/api/admin/workflows/${encodeURIComponent(id)}`, changes),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
      void queryClient.invalidateQueries({ queryKey: PUBLIC_WORKFLOWS_KEY });
    },
  });
}
