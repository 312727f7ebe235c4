import { useMutation } from '@tanstack/react-query';
import { apiPost } from './api';

/** Mails a new verification link to the signed-in person (202; 409 when already verified; 429 throttled). */
export function useResendVerification() {
  return useMutation({
    mutationFn: () => apiPost<{ ok: true }>('/api/auth/verify-email/resend'),
  });
}
