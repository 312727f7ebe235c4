import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

const adminWorkflowQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.admin.workflow(id),
    queryFn: () => api.get('/api/admin/workflows/{id}', { path: { id } }),
  });

export function useAdminWorkflow(id: string | null) {
  return useQuery({ ...adminWorkflowQuery(id ?? ''), enabled: Boolean(id) });
}
