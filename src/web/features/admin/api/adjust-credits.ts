import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAdjustCreditsRequest, TAdjustCreditsResponse } from '#shared/contract/admin';
import { apiPost } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export function useAdjustCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TAdjustCreditsRequest) =>
      apiPost<TAdjustCreditsResponse>('/api/admin/users/adjust-credits', body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all });
      // The admin may have adjusted their own balance: the header badge reads it.
      void queryClient.invalidateQueries({ queryKey: queryKeys.me });
    },
  });
}
