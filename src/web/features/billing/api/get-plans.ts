import { queryOptions, useQuery } from '@tanstack/react-query';
import { CREDITS_PATHS, type TPlansResponse } from '#shared/contract/credits';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** The catalogue the server sells and its payment provider; it does not change while the app runs. */
export const plansQuery = queryOptions({
  queryKey: queryKeys.plans(),
  queryFn: () => api<TPlansResponse>(CREDITS_PATHS.plans),
  staleTime: Infinity,
});

export function usePlans() {
  return useQuery(plansQuery);
}
