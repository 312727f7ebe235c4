import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/auth/signin', 'post'>) => api.post('/api/auth/signin', { body }),
    onSuccess: (user) => queryClient.setQueryData(queryKeys.me, user),
  });
}
