import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCompleteRunRequest, TExecution } from '#shared/contract/executions';
import { apiPost } from '#web/lib/api';
import { executionQuery } from './get-execution';
import { queryKeys } from '#web/lib/query-keys';

/** Sends the answers to the workflow; the answer is the run, finished or still working. */
export function useCompleteExecution(executionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCompleteRunRequest) =>
      apiPost<TExecution>(`/api/executions/${encodeURIComponent(executionId)}/complete`, body),
    onSuccess: (run) => {
      queryClient.setQueryData(executionQuery(executionId).queryKey, run);
      void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflows() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.executions() });
    },
  });
}
