import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminWorkflowDetail } from '#shared/contract/admin';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const adminWorkflowQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.admin.workflow(id),
    queryFn: () => api<TAdminWorkflowDetail>(`/api/admin/workflows/${encodeURIComponent(id)}`),
  });

export function useAdminWorkflow(id: string | null) {
  return useQuery({ ...adminWorkflowQuery(id ?? ''), enabled: Boolean(id) });
}
