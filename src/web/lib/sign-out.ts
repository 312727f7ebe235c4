import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from './api';
import { queryKeys } from './query-keys';

/** Ends the session; the user becomes null and every cached answer is dropped. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<{ ok: true }>('/api/auth/signout'),
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(queryKeys.me, null);
    },
  });
}
