import { useMutation } from '@tanstack/react-query';
import type { TRevokeOthersResponse } from '#shared/contract/account';
import { apiPost } from '#web/lib/api';

/** Signs the account out everywhere but on this browser. */
export function useRevokeOtherSessions() {
  return useMutation({
    mutationFn: () => apiPost<TRevokeOthersResponse>('/api/account/sessions/revoke-others'),
  });
}
