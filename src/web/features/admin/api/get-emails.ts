import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type ApiQuery } from '#web/lib/api-client';
import { adminPageQuery } from './list-fetcher';
import { queryKeys } from '#web/lib/query-keys';

const IN_FLIGHT = new Set(['pending', 'sending']);
const POLL_MS = 5000;

const adminEmailsQuery = (query: ApiQuery<'/api/admin/emails'>) =>
  queryOptions({
    ...adminPageQuery(queryKeys.admin.emails(query), () => api.page('/api/admin/emails', { query })),
    // Mails on their way change status on their own: look again while any is pending or sending.
    refetchInterval: (query) =>
      query.state.data?.items.some((m) => IN_FLIGHT.has(m.status)) ? POLL_MS : false,
  });

/** One page of the outbox, newest first, with the total for the same filters. */
export function useAdminEmails(query: ApiQuery<'/api/admin/emails'>) {
  return useQuery(adminEmailsQuery(query));
}

/** One mail with its text and HTML parts. */
export function useAdminEmail(id: string | null) {
  return useQuery({
    queryKey: queryKeys.admin.email(id),
    queryFn: () => api.get('/api/admin/emails/{id}', { path: { id: id ?? '' } }),
    enabled: id !== null,
  });
}
