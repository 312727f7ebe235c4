import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

const adminStatsQuery = queryOptions({
  queryKey: queryKeys.admin.stats(),
  queryFn: () => api.get('/api/admin/stats'),
});

export function useAdminStats() {
  return useQuery(adminStatsQuery);
}
