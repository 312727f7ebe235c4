import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** The catalogue; the browser revalidates it with the server's ETag, so an unchanged list costs a 304. */
const publicWorkflowsQuery = queryOptions({
  queryKey: queryKeys.publicWorkflows(),
  queryFn: () => api.get('/api/workflows/public'),
});

export function usePublicWorkflows() {
  return useQuery(publicWorkflowsQuery);
}
