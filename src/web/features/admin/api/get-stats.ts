import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminStats } from '#shared/contract/admin';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const adminStatsQuery = queryOptions({
  queryKey: queryKeys.admin.stats(),
  queryFn: () => api<TAdminStats>('/api/admin/stats'),
});

export function useAdminStats() {
  return useQuery(adminStatsQuery);
}
