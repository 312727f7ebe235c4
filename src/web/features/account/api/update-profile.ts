import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** Changes the name and/or the language of the person's mails; answers the session user. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/account/profile', 'patch'>) =>
      api.patch('/api/account/profile', { body }),
    onSuccess: (user) => queryClient.setQueryData(queryKeys.me, user),
  });
}
