import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { TExecution } from '#shared/contract/executions';
import { executionQuery, hasEnded, useExecution } from './api/get-execution';
import { queryKeys } from '#web/lib/query-keys';
import { api } from '#web/lib/api-client';
import { useRunStream } from '#web/lib/use-run-stream';
import { refreshMe } from '#web/lib/session';

const POLL_MS = 1500;

/**
 * Follows a run until it ends: the server's event stream pushes each change (useRunStream); if the stream is
 * refused or keeps failing, the run is polled instead. When it ends, the history and the balance (a refund)
 * are refreshed.
 */
export function useFollowExecution(executionId: string | null, active: boolean): TExecution | undefined {
  const queryClient = useQueryClient();
  const id = executionId ?? '';
  // The cached run, read before the stream is chosen (the fetching observer below needs the stream's state).
  const ended = hasEnded(useExecution(id, { enabled: false, pollMs: false }).data);
  const following = active && Boolean(executionId) && !ended;
  const streamBroken = useRunStream(
    following ? api.url('/api/executions/{id}/events', { path: { id } }) : null,
    (data) => {
      const next = data as TExecution | null;
      if (!next || typeof next !== 'object' || next.id !== executionId) return false;
      queryClient.setQueryData(executionQuery(executionId).queryKey, next);
      return hasEnded(next);
    },
  );
  const run = useExecution(id, { enabled: active && Boolean(executionId), pollMs: streamBroken && POLL_MS });

  const refreshedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!hasEnded(run.data) || refreshedFor.current === executionId) return;
    refreshedFor.current = executionId;
    void queryClient.invalidateQueries({ queryKey: queryKeys.executions() });
    void refreshMe(queryClient);
  }, [run.data, executionId, queryClient]);

  return run.data;
}
