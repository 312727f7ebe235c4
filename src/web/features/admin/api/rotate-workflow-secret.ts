import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TWorkflowSecret } from '../../../../shared/contract/admin';
import { apiPost } from '../../../lib/api';
import { ADMIN_KEY } from './admin-keys';
import { workflowSecretQuery } from './get-workflow-secret';

export function useRotateWorkflowSecret(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiPost<TWorkflowSecret>(`/api/admin/workflows/${encodeURIComponent(id)}/rotate-secret`),
    onSuccess: (secret) => {
      queryClient.setQueryData(workflowSecretQuery(id).queryKey, secret);
      void queryClient.invalidateQueries({ queryKey: [...ADMIN_KEY, 'audit'] });
    },
  });
}
