import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

const publicWorkflowQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.publicWorkflow(id),
    queryFn: () => api.get('/api/workflows/public/{id}', { path: { id } }),
  });

/** The workflow the execute screen runs: its questions or its welcome message. */
export function usePublicWorkflow(id: string, enabled = true) {
  return useQuery({ ...publicWorkflowQuery(id), enabled });
}
