import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminStats } from '../../../../shared/contract/admin';
import { api } from '../../../lib/api';
import { ADMIN_KEY } from './admin-keys';

export const adminStatsQuery = queryOptions({
  queryKey: [...ADMIN_KEY, 'stats'],
  queryFn: () => api<TAdminStats>('/api/admin/stats'),
});

export function useAdminStats() {
  return useQuery(adminStatsQuery);
}
