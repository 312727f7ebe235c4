import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TExecution } from '#shared/contract/executions';
import { api, ApiError, type ApiBody } from '#web/lib/api-client';
import { executionQuery } from './get-execution';
import { queryKeys } from '#web/lib/query-keys';
import { refreshMe } from '#web/lib/session';

/**
 * A failure that does not say whether the answers went out: the connection dropped, or a proxy in front
 * answered for a server instance that went away mid-call (a 5xx without the app's error code).
 */
const undetermined = (err: unknown) =>
  !(err instanceof ApiError) || (err.code === undefined && err.status >= 500);

/**
 * Sends the answers to the workflow; the answer is the run, finished or still working. When the call fails
 * without a verdict, the run itself says whether the answers were sent (it is no longer pending): then the
 * run goes on, followed like any other, instead of asking to send again what the workflow already has.
 */
export function useCompleteExecution(executionId: string) {
  const queryClient = useQueryClient();
  const path = { id: executionId };
  return useMutation({
    mutationFn: async (body: ApiBody<'/api/executions/{id}/complete', 'post'>): Promise<TExecution> => {
      try {
        return await api.post('/api/executions/{id}/complete', { path, body });
      } catch (err) {
        if (!undetermined(err)) throw err;
        const run = await api.get('/api/executions/{id}', { path }).catch(() => null);
        if (run && run.status !== 'pending') return run;
        throw err;
      }
    },
    onSuccess: (run) => {
      queryClient.setQueryData(executionQuery(executionId).queryKey, run);
      void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflows() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.executions() });
    },
    // The answers pay for the run: the balance in the top bar moves (or, refused, is read again).
    onSettled: () => refreshMe(queryClient),
  });
}
