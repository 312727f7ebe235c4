import { useMutation } from '@tanstack/react-query';
import type { TAccountDelete } from '#shared/contract/account';
import { apiPost } from '#web/lib/api';

/**
 * Deletes the account (needs the password); the server clears the cookie. The caller leaves the page
 * before the cached session is dropped, so the route guard does not send it to the sign-in page first.
 */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: TAccountDelete) => apiPost<{ ok: true }>('/api/account/delete', body),
  });
}
