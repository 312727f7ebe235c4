import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TNotificationSettings } from '#shared/contract/notifications';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** What the person is told of, by mail and under the bell, and their low-balance threshold. */
export function useNotificationSettings() {
  return useQuery({
    queryKey: queryKeys.notificationSettings(),
    queryFn: () => api.get('/api/notifications/settings'),
  });
}

export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: TNotificationSettings) =>
      api.put('/api/notifications/settings', { body: settings }),
    onSuccess: (saved) => queryClient.setQueryData(queryKeys.notificationSettings(), saved),
  });
}
