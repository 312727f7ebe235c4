import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminUserListQuery, TAdminUser } from '#shared/contract/admin';
import { fetchPage, type ListParams } from './list-fetcher';
import { queryKeys } from '#web/lib/query-keys';

export const adminUsersQuery = (params: TAdminUserListQuery) =>
  queryOptions({
    queryKey: queryKeys.admin.users(params),
    queryFn: () => fetchPage<TAdminUser>('/api/admin/users', params as ListParams),
    // The current page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export function useAdminUsers(params: TAdminUserListQuery) {
  return useQuery(adminUsersQuery(params));
}
