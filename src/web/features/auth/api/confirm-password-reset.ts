import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/**
 * Sets the new password from a mailed link. Every session of the account ends and this browser is signed in
 * as that person: whatever was cached (maybe another account's) goes, the answer is the session user.
 */
export function useConfirmPasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/auth/password-reset/confirm', 'post'>) =>
      api.post('/api/auth/password-reset/confirm', { body }),
    onSuccess: (user) => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.me[0] });
      queryClient.setQueryData(queryKeys.me, user);
    },
  });
}
