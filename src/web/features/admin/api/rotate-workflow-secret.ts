import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TWorkflowSecret } from '#shared/contract/admin';
import { apiPost } from '#web/lib/api';
import { workflowSecretQuery } from './get-workflow-secret';
import { queryKeys } from '#web/lib/query-keys';

export function useRotateWorkflowSecret(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiPost<TWorkflowSecret>(`/api/admin/workflows/${encodeURIComponent(id)}/rotate-secret`),
    onSuccess: (secret) => {
      queryClient.setQueryData(workflowSecretQuery(id).queryKey, secret);
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.auditAll() });
    },
  });
}
