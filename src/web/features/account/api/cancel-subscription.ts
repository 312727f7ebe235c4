import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CREDITS_PATHS, type TSubscription } from '#shared/contract/credits';
import { apiPost } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** Cancels the active monthly plan; credits already granted stay. */
export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<{ subscription: TSubscription }>(CREDITS_PATHS.cancelSubscription),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.subscription() }),
  });
}
