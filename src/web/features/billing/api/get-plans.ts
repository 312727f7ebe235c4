import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** The catalogue the server sells and its payment provider; it does not change while the app runs. */
const plansQuery = queryOptions({
  queryKey: queryKeys.plans(),
  queryFn: () => api.get('/api/credits/plans'),
  staleTime: Infinity,
});

export function usePlans() {
  return useQuery(plansQuery);
}
