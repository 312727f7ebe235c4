import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';
import { refreshMe } from '#web/lib/session';

export function useAdjustCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiBody<'/api/admin/users/adjust-credits', 'post'>) =>
      api.post('/api/admin/users/adjust-credits', { body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all });
      // The admin may have adjusted their own balance: the header badge reads it.
      void refreshMe(queryClient);
    },
  });
}
