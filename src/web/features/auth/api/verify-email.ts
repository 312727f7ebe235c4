import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TVerifyEmailRequest, TVerifyEmailResponse } from '#shared/contract/auth';
import { apiPost } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** Uses a verification (or e-mail change) link; the session user changes, so it is read again. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TVerifyEmailRequest) => apiPost<TVerifyEmailResponse>('/api/auth/verify-email', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}
