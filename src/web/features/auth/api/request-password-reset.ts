import { useMutation } from '@tanstack/react-query';
import type { TPasswordResetRequest } from '#shared/contract/auth';
import { apiPost } from '#web/lib/api';

/** Asks for a reset link: always 202 `{ ok: true }`, whether the account exists or not. */
export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (body: TPasswordResetRequest) =>
      apiPost<{ ok: true }>('/api/auth/password-reset/request', body),
  });
}
