import { useQuery } from '@tanstack/react-query';
import { api, type ApiQuery } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';
import { adminPageQuery } from './list-fetcher';

// One page of each admin list, with the total for the same filters (the outbox is in get-emails.ts).

export const useAdminAudit = (query: ApiQuery<'/api/admin/audit'>) =>
  useQuery(adminPageQuery(queryKeys.admin.audit(query), () => api.page('/api/admin/audit', { query })));

export const useAdminCredits = (query: ApiQuery<'/api/admin/credits'>) =>
  useQuery(adminPageQuery(queryKeys.admin.credits(query), () => api.page('/api/admin/credits', { query })));

export const useAdminExecutions = (query: ApiQuery<'/api/admin/executions'>) =>
  useQuery(
    adminPageQuery(queryKeys.admin.executions(query), () => api.page('/api/admin/executions', { query })),
  );

export const useAdminUsers = (query: ApiQuery<'/api/admin/users'>) =>
  useQuery(adminPageQuery(queryKeys.admin.users(query), () => api.page('/api/admin/users', { query })));

export const useAdminWorkflows = (query: ApiQuery<'/api/admin/workflows'>) =>
  useQuery(
    adminPageQuery(queryKeys.admin.workflows(query), () => api.page('/api/admin/workflows', { query })),
  );
