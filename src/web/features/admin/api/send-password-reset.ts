import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** Mails a user a password-reset link (audited). An admin never sets someone's password. */
export function useSendPasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/admin/users/{id}/password-reset', { path: { id } }),
    // A new mail in the outbox and a new audit row.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
