import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZStartRunRequest, ZStartRunResponse } from '#shared/contract/executions';
import { apiPost } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

type StartRunRequest = z.infer<typeof ZStartRunRequest>;
type StartRunResponse = z.infer<typeof ZStartRunResponse>;

/** Starts (and pays for) a run; the balance in the top bar changes, so the session user is refetched. */
export function useStartExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartRunRequest) => apiPost<StartRunResponse>('/api/executions/start', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
}
