import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { workflowSecretQuery } from './get-workflow-secret';
import { queryKeys } from '#web/lib/query-keys';

export function useRotateWorkflowSecret(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/admin/workflows/{id}/rotate-secret', { path: { id } }),
    onSuccess: (secret) => {
      queryClient.setQueryData(workflowSecretQuery(id).queryKey, secret);
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.auditAll() });
    },
  });
}
