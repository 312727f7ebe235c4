import { useMutation } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';

/** Needs the current password; the account's other sessions end, this one stays. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/account/password', 'post'>) =>
      api.post('/api/account/password', { body }),
  });
}
