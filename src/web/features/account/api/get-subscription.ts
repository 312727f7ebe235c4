import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

const subscriptionQuery = queryOptions({
  queryKey: queryKeys.subscription(),
  queryFn: () => api.get('/api/credits/subscription'),
});

/** The user's active monthly plan, or null. */
export function useSubscription() {
  return useQuery({ ...subscriptionQuery, select: (data) => data.subscription });
}
