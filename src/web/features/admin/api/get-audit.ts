import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminAuditListQuery, TAdminAuditEntry } from '#shared/contract/admin';
import { fetchPage, type ListParams } from './list-fetcher';
import { queryKeys } from '#web/lib/query-keys';

export const adminAuditQuery = (params: TAdminAuditListQuery) =>
  queryOptions({
    queryKey: queryKeys.admin.audit(params),
    queryFn: () => fetchPage<TAdminAuditEntry>('/api/admin/audit', params as ListParams),
    // The current page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export function useAdminAudit(params: TAdminAuditListQuery) {
  return useQuery(adminAuditQuery(params));
}
