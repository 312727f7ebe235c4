import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminExecutionListQuery, TAdminExecution } from '#shared/contract/admin';
import { fetchPage, type ListParams } from './list-fetcher';
import { queryKeys } from '#web/lib/query-keys';

export const adminExecutionsQuery = (params: TAdminExecutionListQuery) =>
  queryOptions({
    queryKey: queryKeys.admin.executions(params),
    queryFn: () => fetchPage<TAdminExecution>('/api/admin/executions', params as ListParams),
    // The current page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export function useAdminExecutions(params: TAdminExecutionListQuery) {
  return useQuery(adminExecutionsQuery(params));
}
