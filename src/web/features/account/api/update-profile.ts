import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TProfileUpdate } from '#shared/contract/account';
import type { TSessionUser } from '#shared/contract/auth';
import { apiPatch } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** Changes the name and/or the language of the person's mails; answers the session user. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TProfileUpdate) => apiPatch<TSessionUser>('/api/account/profile', body),
    onSuccess: (user) => queryClient.setQueryData(queryKeys.me, user),
  });
}
