import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** Signs the account out everywhere but on this browser. */
export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/account/sessions/revoke-others'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.sessions() }),
  });
}
