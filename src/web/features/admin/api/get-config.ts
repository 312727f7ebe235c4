import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminConfigEntry } from '#shared/contract/admin';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const adminConfigQuery = queryOptions({
  queryKey: queryKeys.admin.config(),
  queryFn: () => api<TAdminConfigEntry[]>('/api/admin/config'),
});

export function useAdminConfig() {
  return useQuery(adminConfigQuery);
}
