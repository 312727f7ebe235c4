import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** Mails a user a password-reset link (audited). An admin never sets someone's password. */
export function useSendPasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      apiPost<{ ok: true }>(`/api/admin/users/${encodeURIComponent(userId)}/password-reset`),
    // A new mail in the outbox and a new audit row.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
