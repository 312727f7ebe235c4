import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/** Ends the session; the user becomes null and every cached answer is dropped. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/auth/signout'),
    onSettled: () => {
      queryClient.clear();
      queryClient.setQueryData(queryKeys.me, null);
    },
  });
}
