import { useMutation } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';

/** Mails a confirmation link to the new address (202); the address changes only when the link is used. */
export function useChangeEmail() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/account/email', 'post'>) => api.post('/api/account/email', { body }),
  });
}
