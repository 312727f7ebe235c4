import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

export const workflowSecretQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.admin.workflowSecret(id),
    queryFn: () => api.get('/api/admin/workflows/{id}/secret', { path: { id } }),
    // A secret is fetched when asked for and not kept around longer than the dialog.
    gcTime: 0,
  });

export function useWorkflowSecret(id: string) {
  return useQuery(workflowSecretQuery(id));
}
