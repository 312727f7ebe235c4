import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';
import { hasEnded } from './get-execution';

/** One run for its page; while it has not ended it is read again every few seconds. */
export function useExecutionDetail(id: string) {
  return useQuery({
    queryKey: queryKeys.executionDetail(id),
    queryFn: () => api.get('/api/executions/{id}', { path: { id } }),
    refetchInterval: (query) => (query.state.data && !hasEnded(query.state.data) ? 3000 : false),
    // A 404 (not yours, or gone) will not change by asking again.
    retry: false,
  });
}

/**
 * A reopened chat's conversation so far (the server answers the person's unsent run again on a reload), read
 * once when its screen opens: the screen then keeps the conversation itself.
 */
export function useConversationSoFar(id: string | null, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.executionDetail(id ?? ''),
    queryFn: () => api.get('/api/executions/{id}', { path: { id: id ?? '' } }),
    enabled: enabled && id !== null,
    staleTime: Infinity,
    retry: false,
    select: (run) => run.conversation ?? [],
  });
}
