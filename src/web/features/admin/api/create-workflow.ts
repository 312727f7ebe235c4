import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAdminWorkflowDetail } from '#shared/contract/admin';
import type { TWorkflowInput } from '#shared/contract/workflows';
import { apiPost } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export function useCreateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TWorkflowInput) => apiPost<TAdminWorkflowDetail>('/api/admin/workflows', body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflows() });
    },
  });
}
