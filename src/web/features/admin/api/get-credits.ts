import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminCreditListQuery, TAdminCreditTransaction } from '#shared/contract/admin';
import { fetchPage, type ListParams } from './list-fetcher';
import { queryKeys } from '#web/lib/query-keys';

export const adminCreditsQuery = (params: TAdminCreditListQuery) =>
  queryOptions({
    queryKey: queryKeys.admin.credits(params),
    queryFn: () => fetchPage<TAdminCreditTransaction>('/api/admin/credits', params as ListParams),
    // The current page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export function useAdminCredits(params: TAdminCreditListQuery) {
  return useQuery(adminCreditsQuery(params));
}
