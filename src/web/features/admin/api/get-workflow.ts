import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminWorkflowDetail } from '../../../../shared/contract/admin';
import { api } from '../../../lib/api';
import { ADMIN_KEY } from './admin-keys';

export const adminWorkflowQuery = (id: string) =>
  queryOptions({
    queryKey: [...ADMIN_KEY, 'workflow', id],
    queryFn: () => api<TAdminWorkflowDetail>(`/api/admin/workflows/${encodeURIComponent(id)}`),
  });

export function useAdminWorkflow(id: string | null) {
  return useQuery({ ...adminWorkflowQuery(id ?? ''), enabled: Boolean(id) });
}
