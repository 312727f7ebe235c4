import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { TExecution } from '#shared/contract/executions';
import { executionQuery, hasEnded, useExecution } from './api/get-execution';
import { queryKeys } from '#web/lib/query-keys';

const POLL_MS = 1500;
/** Reconnections in a row that bring no answer before the stream is given up for polling. */
const MAX_RECONNECTS = 3;

/**
 * Follows a run until it ends: the server's event stream pushes each change. A dropped stream reconnects by
 * itself and resumes where it was (EventSource sends the last event's id, and the server sends only what is
 * new); if the stream is refused (too many open, the run gone) or keeps failing, the run is polled instead.
 * When it ends, the history and the balance (a refund) are refreshed.
 */
export function useFollowExecution(executionId: string | null, active: boolean): TExecution | undefined {
  const queryClient = useQueryClient();
  const [streamBroken, setStreamBroken] = useState(() => typeof EventSource === 'undefined');
  const id = executionId ?? '';
  const run = useExecution(id, { enabled: active && Boolean(executionId), pollMs: streamBroken && POLL_MS });
  const ended = hasEnded(run.data);

  useEffect(() => {
    if (!active || !executionId || ended || streamBroken) return;
    const source = new EventSource(`/api/executions/${encodeURIComponent(executionId)}/events`);
    const onRun = (event: MessageEvent<string>) => {
      try {
        const next = JSON.parse(event.data) as TExecution;
        if (next && typeof next === 'object' && next.id === executionId) {
          queryClient.setQueryData(executionQuery(executionId).queryKey, next);
          if (hasEnded(next)) source.close();
        }
      } catch {
        // A line we cannot read is skipped: the next event, or the polling fallback, carries the state.
      }
    };
    // The server names its events `execution`; unnamed ones are read the same way.
    source.addEventListener('execution', onRun);
    source.onmessage = onRun;
    let failures = 0;
    source.onopen = () => {
      failures = 0;
    };
    source.onerror = () => {
      // CONNECTING: EventSource is reconnecting by itself. CLOSED: the server refused the stream for good.
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures > MAX_RECONNECTS) {
        source.close();
        setStreamBroken(true);
      }
    };
    return () => source.close();
  }, [active, executionId, ended, streamBroken, queryClient]);

  const refreshedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!ended || refreshedFor.current === executionId) return;
    refreshedFor.current = executionId;
    void queryClient.invalidateQueries({ queryKey: queryKeys.executions() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.me });
  }, [ended, executionId, queryClient]);

  return run.data;
}
