import { useMutation } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';

/**
 * Deletes the account (needs the password); the server clears the cookie. The caller leaves the page
 * before the cached session is dropped, so the route guard does not send it to the sign-in page first.
 */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/account/delete', 'post'>) => api.post('/api/account/delete', { body }),
  });
}
