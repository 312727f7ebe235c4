import { useMutation } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';

/** Asks for a reset link: always 202 `{ ok: true }`, whether the account exists or not. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/auth/password-reset/request', 'post'>) =>
      api.post('/api/auth/password-reset/request', { body }),
  });
}
