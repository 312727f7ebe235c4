import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** The account's signed-in devices, most recently used first. */
export function useSessions() {
  return useQuery({
    queryKey: queryKeys.sessions(),
    queryFn: () => api.get('/api/account/sessions'),
  });
}

/** Signs one other device out (this browser signs out through the header's sign-out). */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete('/api/account/sessions/{id}', { path: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions() }),
  });
}
