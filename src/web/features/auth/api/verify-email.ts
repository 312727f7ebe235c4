import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { refreshMe } from '#web/lib/session';

/** Uses a verification (or e-mail change) link; the session user changes, so it is read again. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/auth/verify-email', 'post'>) =>
      api.post('/api/auth/verify-email', { body }),
    onSuccess: () => refreshMe(queryClient),
  });
}
