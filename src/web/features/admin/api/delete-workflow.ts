import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TDeleteWorkflowResponse } from '../../../../shared/contract/admin';
import { apiDelete } from '../../../lib/api';
import { ADMIN_KEY, PUBLIC_WORKFLOWS_KEY } from './admin-keys';

/** Deletes a workflow and its runs (its ledger rows stay, with no workflow). */
export function useDeleteWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiDelete<TDeleteWorkflowResponse>(`/api/workflows/${encodeURIComponent(id)}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
      void queryClient.invalidateQueries({ queryKey: PUBLIC_WORKFLOWS_KEY });
    },
  });
}
