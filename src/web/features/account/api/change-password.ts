import { useMutation } from '@tanstack/react-query';
import type { TPasswordChange } from '#shared/contract/account';
import { apiPost } from '#web/lib/api';

/** Needs the current password; the account's other sessions end, this one stays. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: TPasswordChange) => apiPost<{ ok: true }>('/api/account/password', body),
  });
}
