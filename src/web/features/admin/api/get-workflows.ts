import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminWorkflowListQuery, TAdminWorkflow } from '#shared/contract/admin';
import { fetchPage, type ListParams } from './list-fetcher';
import { queryKeys } from '#web/lib/query-keys';

export const adminWorkflowsQuery = (params: TAdminWorkflowListQuery) =>
  queryOptions({
    queryKey: queryKeys.admin.workflows(params),
    queryFn: () => fetchPage<TAdminWorkflow>('/api/admin/workflows', params as ListParams),
    // The current page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export function useAdminWorkflows(params: TAdminWorkflowListQuery) {
  return useQuery(adminWorkflowsQuery(params));
}
