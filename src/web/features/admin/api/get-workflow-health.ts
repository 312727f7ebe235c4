import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** A workflow's health (24 h, 7 and 30 days), its daily series, incidents and pause state. */
export function useWorkflowHealth(id: string) {
  return useQuery({
    queryKey: queryKeys.admin.workflowHealth(id),
    queryFn: () => api.get('/api/admin/workflows/{id}/health', { path: { id } }),
  });
}
