import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TSessionUser, TSigninRequest } from '#shared/contract/auth';
import { apiPost } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TSigninRequest) => apiPost<TSessionUser>('/api/auth/signin', body),
    onSuccess: (user) => queryClient.setQueryData(queryKeys.me, user),
  });
}
