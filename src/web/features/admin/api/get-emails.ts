import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminEmailListQuery } from '#shared/contract/admin';
import type { TAdminEmail, TAdminEmailDetail } from '#shared/contract/emails';
import { api } from '#web/lib/api';
import { adminPageQuery } from './list-fetcher';
import { queryKeys } from '#web/lib/query-keys';

const IN_FLIGHT = new Set(['pending', 'sending']);
const POLL_MS = 5000;

export const adminEmailsQuery = (params: TAdminEmailListQuery) =>
  queryOptions({
    ...adminPageQuery<TAdminEmail>(queryKeys.admin.emails(params), '/api/admin/emails', params),
    // Mails on their way change status on their own: look again while any is pending or sending.
    refetchInterval: (query) =>
      query.state.data?.items.some((m) => IN_FLIGHT.has(m.status)) ? POLL_MS : false,
  });

/** One page of the outbox, newest first, with the total for the same filters. */
export function useAdminEmails(params: TAdminEmailListQuery) {
  return useQuery(adminEmailsQuery(params));
}

/** One mail with its text and HTML parts. */
export function useAdminEmail(id: string | null) {
  return useQuery({
    queryKey: queryKeys.admin.email(id),
    queryFn: () => api<TAdminEmailDetail>(`/api/admin/emails/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
  });
}
