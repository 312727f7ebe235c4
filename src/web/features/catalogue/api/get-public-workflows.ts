import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TPublicWorkflow } from '#shared/contract/workflows';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** The catalogue; the browser revalidates it with the server's ETag, so an unchanged list costs a 304. */
export const publicWorkflowsQuery = queryOptions({
  queryKey: queryKeys.publicWorkflows(),
  queryFn: () => api<TPublicWorkflow[]>('/api/workflows/public'),
});

export function usePublicWorkflows() {
  return useQuery(publicWorkflowsQuery);
}
