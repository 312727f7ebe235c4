import { queryOptions, useQuery } from '@tanstack/react-query';
import { CREDITS_PATHS, type TSubscriptionResponse } from '#shared/contract/credits';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const subscriptionQuery = queryOptions({
  queryKey: queryKeys.subscription(),
  queryFn: () => api<TSubscriptionResponse>(CREDITS_PATHS.subscription),
});

/** The user's active monthly plan, or null. */
export function useSubscription() {
  return useQuery({ ...subscriptionQuery, select: (data) => data.subscription });
}
