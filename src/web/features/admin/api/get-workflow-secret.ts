import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TWorkflowSecret } from '#shared/contract/admin';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const workflowSecretQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.admin.workflowSecret(id),
    queryFn: () => api<TWorkflowSecret>(`/api/admin/workflows/${encodeURIComponent(id)}/secret`),
    // A secret is fetched when asked for and not kept around longer than the dialog.
    gcTime: 0,
  });

export function useWorkflowSecret(id: string) {
  return useQuery(workflowSecretQuery(id));
}
