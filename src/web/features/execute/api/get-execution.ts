import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TExecution } from '#shared/contract/executions';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

const ENDED = new Set<TExecution['status']>(['completed', 'failed', 'expired']);
export const hasEnded = (run: Pick<TExecution, 'status'> | undefined): boolean =>
  Boolean(run && ENDED.has(run.status));

export const executionQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.execution(id),
    queryFn: () => api<TExecution>(`/api/executions/${encodeURIComponent(id)}`),
  });

/**
 * One run. `pollMs` asks for a refetch every so often while the run has not ended (the fallback when the
 * event stream is not available); without it the cache is fed by the stream.
 */
export function useExecution(id: string, { enabled, pollMs }: { enabled: boolean; pollMs: number | false }) {
  return useQuery({
    ...executionQuery(id),
    enabled,
    refetchInterval: (query) => (pollMs && !hasEnded(query.state.data) ? pollMs : false),
  });
}
