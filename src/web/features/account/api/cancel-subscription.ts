import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** Cancels the active monthly plan; credits already granted stay. */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/credits/subscription/cancel'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.subscription() }),
  });
}
