import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/** What the server lets the browser know of its configuration; it changes only with a restart. */
export function usePublicConfig() {
  return useQuery({
    queryKey: queryKeys.publicConfig(),
    queryFn: () => api.get('/api/config'),
    staleTime: Infinity,
  });
}
