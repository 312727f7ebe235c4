import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

export function useSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/auth/signup', 'post'>) => api.post('/api/auth/signup', { body }),
    onSuccess: (user) => queryClient.setQueryData(queryKeys.me, user),
  });
}
