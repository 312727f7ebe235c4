import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TPublicWorkflowDetail } from '#shared/contract/workflows';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const publicWorkflowQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.publicWorkflow(id),
    queryFn: () => api<TPublicWorkflowDetail>(`/api/workflows/public/${encodeURIComponent(id)}`),
  });

/** The workflow the execute screen runs: its questions or its welcome message. */
export function usePublicWorkflow(id: string) {
  return useQuery(publicWorkflowQuery(id));
}
