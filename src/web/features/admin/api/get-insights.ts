import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type ApiQuery } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

export const useAdminInsights = (query: ApiQuery<'/api/admin/insights'>, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.admin.insights(query),
    queryFn: () => api.get('/api/admin/insights', { query }),
    enabled,
    // The figures of the last period stay on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

/** The address of a CSV export for the browser to download (a plain link: the session cookie goes along). */
export function exportUrl(kind: 'runs' | 'ledger', query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const path = kind === 'runs' ? '/api/admin/exports/runs' : '/api/admin/exports/ledger';
  return `${api.url(path)}?${params.toString()}`;
}
