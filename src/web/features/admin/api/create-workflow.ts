import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAdminWorkflowDetail } from '../../../../shared/contract/admin';
import type { TWorkflowInput } from '../../../../shared/contract/workflows';
import { apiPost } from '../../../lib/api';
import { ADMIN_KEY, PUBLIC_WORKFLOWS_KEY } from './admin-keys';

export function useCreateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TWorkflowInput) => apiPost<TAdminWorkflowDetail>('/api/admin/workflows', body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEY });
      void queryClient.invalidateQueries({ queryKey: PUBLIC_WORKFLOWS_KEY });
    },
  });
}
