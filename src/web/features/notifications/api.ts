import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { TUnreadCount } from '#shared/contract/notifications';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';
import { refreshMe } from '#web/lib/session';

/**
 * The bell's unread count: read once, then kept by the server's event stream (`unread` events on every change,
 * from any tab or device). EventSource reconnects by itself; without it the count is read again on focus.
 */
export function useUnreadCount(enabled: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource(api.url('/api/notifications/events'));
    source.addEventListener('unread', (e: MessageEvent<string>) => {
      const next = JSON.parse(e.data) as TUnreadCount;
      const before = queryClient.getQueryData<TUnreadCount>(queryKeys.unreadNotifications());
      queryClient.setQueryData(queryKeys.unreadNotifications(), next);
      if (before?.unread === next.unread) return;
      void queryClient.invalidateQueries({ queryKey: queryKeys.notifications() });
      // A new notice is most often a run that ended elsewhere: the history and the balance changed with it.
      if (before !== undefined && next.unread > before.unread) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.executions() });
        void refreshMe(queryClient);
      }
    });
    return () => source.close();
  }, [enabled, queryClient]);
  return useQuery({
    queryKey: queryKeys.unreadNotifications(),
    queryFn: () => api.get('/api/notifications/unread-count'),
    enabled,
  });
}

/** The newest notifications, read while the bell's list is open. */
export function useNotifications(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.notifications(),
    queryFn: () => api.get('/api/notifications', { query: { limit: 20 } }),
    enabled,
  });
}

function useSetUnread() {
  const queryClient = useQueryClient();
  return (answer: TUnreadCount) => {
    queryClient.setQueryData(queryKeys.unreadNotifications(), answer);
    void queryClient.invalidateQueries({ queryKey: queryKeys.notifications() });
  };
}

export function useMarkRead() {
  const setUnread = useSetUnread();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/notifications/{id}/read', { path: { id } }),
    onSuccess: setUnread,
  });
}

export function useMarkAllRead() {
  const setUnread = useSetUnread();
  return useMutation({
    mutationFn: () => api.post('/api/notifications/read-all'),
    onSuccess: setUnread,
  });
}
