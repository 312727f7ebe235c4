import { useQuery } from '@tanstack/react-query';
import type {
  TAdminAuditEntry,
  TAdminAuditListQuery,
  TAdminCreditListQuery,
  TAdminCreditTransaction,
  TAdminExecution,
  TAdminExecutionListQuery,
  TAdminUser,
  TAdminUserListQuery,
  TAdminWorkflow,
  TAdminWorkflowListQuery,
} from '#shared/contract/admin';
import { queryKeys } from '#web/lib/query-keys';
import { adminPageQuery } from './list-fetcher';

// One page of each admin list, with the total for the same filters (the outbox is in get-emails.ts).

export const useAdminAudit = (params: TAdminAuditListQuery) =>
  useQuery(adminPageQuery<TAdminAuditEntry>(queryKeys.admin.audit(params), '/api/admin/audit', params));

export const useAdminCredits = (params: TAdminCreditListQuery) =>
  useQuery(
    adminPageQuery<TAdminCreditTransaction>(queryKeys.admin.credits(params), '/api/admin/credits', params),
  );

export const useAdminExecutions = (params: TAdminExecutionListQuery) =>
  useQuery(
    adminPageQuery<TAdminExecution>(queryKeys.admin.executions(params), '/api/admin/executions', params),
  );

export const useAdminUsers = (params: TAdminUserListQuery) =>
  useQuery(adminPageQuery<TAdminUser>(queryKeys.admin.users(params), '/api/admin/users', params));

export const useAdminWorkflows = (params: TAdminWorkflowListQuery) =>
  useQuery(adminPageQuery<TAdminWorkflow>(queryKeys.admin.workflows(params), '/api/admin/workflows', params));
