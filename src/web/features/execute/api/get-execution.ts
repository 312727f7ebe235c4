import { queryOptions, replaceEqualDeep, useQuery } from '@tanstack/react-query';
import type { TExecution } from '#shared/contract/executions';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

const ENDED = new Set<TExecution['status']>(['completed', 'failed', 'expired']);
export const hasEnded = (run: Pick<TExecution, 'status'> | undefined): boolean =>
  Boolean(run && ENDED.has(run.status));

/**
 * An ended run is final, so a state of it that is still open can only be an older one: answers that cross on
 * the wire (the complete call's answer, read while the run was working, arriving after the event stream said
 * it ended, or a fetch that left before the end) must not put it back to working. The page would then wait
 * for a change that has already happened, with its stream closed.
 */
function keepEnded(previous: unknown, next: unknown): unknown {
  const before = previous as TExecution | undefined;
  const after = next as TExecution | undefined;
  if (hasEnded(before) && !hasEnded(after) && before?.id === after?.id) return previous;
  return replaceEqualDeep(previous, next);
}

export const executionQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.execution(id),
    // The page's leaner view of the run (the event stream feeds the same shape).
    queryFn: (): Promise<TExecution> => api.get('/api/executions/{id}', { path: { id } }),
    structuralSharing: keepEnded,
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
