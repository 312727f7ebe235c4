import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TExecution } from '#shared/contract/executions';
import { api } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export const executionsQuery = queryOptions({
  queryKey: queryKeys.executions(),
  queryFn: () => api<TExecution[]>('/api/executions'),
});

/** The signed-in user's runs, newest first. */
export function useExecutions() {
  return useQuery(executionsQuery);
}
