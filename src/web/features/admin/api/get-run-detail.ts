import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { TAdminRunDetail } from '#shared/contract/operations';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';
import { useRunStream } from '#web/lib/use-run-stream';

/** How often an open run's detail is read again when its event stream is not available. */
const POLL_MS = 2_000;

const isOpen = (status: string | undefined) => status === 'running' || status === 'pending';

/**
 * A run with its answers, delivery log and ledger rows, followed live while the run is open: the admin's event
 * stream of the run pushes the whole detail on each change, a new log entry included (decision 167); without
 * it (no EventSource, the stream refused or failing) the detail is read again every 2 s. Once the run ends it
 * is read once more: the entry of the callback that ended it is written after the ending.
 */
export function useRunDetail(id: string) {
  const queryClient = useQueryClient();
  const queryKey = queryKeys.admin.run(id);
  const queryFn = () => api.get('/api/admin/executions/{id}', { path: { id } });
  // The cached detail, read before the stream is chosen (the fetching observer below needs the stream's state).
  const cached = useQuery({ queryKey, queryFn, enabled: false });
  const open = isOpen(cached.data?.status);
  const streamBroken = useRunStream(
    open ? api.url('/api/admin/executions/{id}/events', { path: { id } }) : null,
    (data) => {
      const next = data as TAdminRunDetail | null;
      if (!next || typeof next !== 'object' || next.id !== id) return false;
      queryClient.setQueryData(queryKey, next);
      return !isOpen(next.status);
    },
  );
  const detail = useQuery({
    queryKey,
    queryFn,
    refetchInterval: (query) => (streamBroken && isOpen(query.state.data?.status) ? POLL_MS : false),
  });

  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) wasOpen.current = true;
    else if (wasOpen.current && detail.data) {
      wasOpen.current = false;
      void queryClient.invalidateQueries({ queryKey });
    }
  }, [open, detail.data, queryClient, queryKey]);

  return detail;
}
