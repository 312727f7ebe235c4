import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TSessionUser, TSignupRequest } from '#shared/contract/auth';
import { apiPost } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TSignupRequest) => apiPost<TSessionUser>('/api/auth/signup', body),
    onSuccess: (user) => queryClient.setQueryData(queryKeys.me, user),
  });
}
