import { useQuery } from '@tanstack/react-query';
import type { TExecutionDetail } from '#shared/contract/executions';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { hasEnded } from './get-execution';

/** One run for its page; while it has not ended it is read again every few seconds. */
export function useExecutionDetail(id: string) {
  return useQuery({
    queryKey: queryKeys.executionDetail(id),
    queryFn: () => api<TExecutionDetail>(`/api/executions/${encodeURIComponent(id)}`),
    refetchInterval: (query) => (query.state.data && !hasEnded(query.state.data) ? 3000 : false),
    // A 404 (not yours, or gone) will not change by asking again.
    retry: false,
  });
}
