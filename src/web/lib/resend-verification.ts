import { useMutation } from '@tanstack/react-query';
import { api } from './api-client';

/** Mails a new verification link to the signed-in person (202; 409 when already verified; 429 throttled). */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => api.post('/api/auth/verify-email/resend'),
  });
}
