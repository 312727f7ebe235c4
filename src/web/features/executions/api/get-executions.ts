import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TExecution } from '#shared/contract/executions';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

const executionsQuery = queryOptions({
  queryKey: queryKeys.executions(),
  queryFn: (): Promise<TExecution[]> => api.get('/api/executions'),
});

/** The signed-in user's runs, newest first. */
export function useExecutions() {
  return useQuery(executionsQuery);
}
