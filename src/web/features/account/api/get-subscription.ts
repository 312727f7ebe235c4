import { queryOptions, useQuery } from '@tanstack/react-query';
import { CREDITS_PATHS, type TSubscriptionResponse } from '../../../../shared/contract/credits';
import { api } from '../../../lib/api';

export const subscriptionQuery = queryOptions({
  queryKey: [CREDITS_PATHS.subscription] as const,
  queryFn: () => api<TSubscriptionResponse>(CREDITS_PATHS.subscription),
});

/** The user's active monthly plan, or null. */
export function useSubscription() {
  return useQuery({ ...subscriptionQuery, select: (data) => data.subscription });
}
