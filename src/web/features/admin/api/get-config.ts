import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

const adminConfigQuery = queryOptions({
  queryKey: queryKeys.admin.config(),
  queryFn: () => api.get('/api/admin/config'),
});

export function useAdminConfig() {
  return useQuery(adminConfigQuery);
}
