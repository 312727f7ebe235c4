import { useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** The workflows' open incidents, for the dashboard. */
export function useOpenIncidents() {
  return useQuery({
    queryKey: queryKeys.admin.incidents(),
    queryFn: () => api.get('/api/admin/incidents'),
  });
}
