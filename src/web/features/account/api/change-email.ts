import { useMutation } from '@tanstack/react-query';
import type { TEmailChange, TEmailChangeResponse } from '#shared/contract/account';
import { apiPost } from '#web/lib/api';

/** Mails a confirmation link to the new address (202); the address changes only when the link is used. */
export function useChangeEmail() {
  return useMutation({
    mutationFn: (body: TEmailChange) => apiPost<TEmailChangeResponse>('/api/account/email', body),
  });
}
