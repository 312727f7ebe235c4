import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from './api';
import { ME_KEY } from './session';

/** Ends the session; the user becomes null and every cached answer is dropped. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<{ ok: true }>('/api/auth/signout'),
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(ME_KEY, null);
    },
  });
}
