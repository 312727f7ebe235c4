import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TRANSACTION_FILTERS } from '#shared/contract/credits';
import { api, type ApiAnswer, type ApiPage } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

export type TransactionFilter = (typeof TRANSACTION_FILTERS)[number] | 'all';

export interface TransactionPage {
  rows: ApiPage<ApiAnswer<'/api/credits/transactions'>[number]>['items'];
  /** Every row matching the filter (the X-Total-Count header), not just the ones loaded. */
  total: number;
}

/** One page of the history, newest first, with the count of every row matching the filter. */
async function getTransactions(filter: TransactionFilter, limit: number): Promise<TransactionPage> {
  const { items, total } = await api.page('/api/credits/transactions', {
    query: { limit, ...(filter === 'all' ? {} : { type: filter }) },
  });
  return { rows: items, total };
}

// Every page's key starts with transactions(), so a purchase elsewhere refreshes every page by that prefix.
const transactionsQuery = (filter: TransactionFilter, limit: number) =>
  queryOptions({
    queryKey: queryKeys.transactionsPage({ filter, limit }),
    queryFn: () => getTransactions(filter, limit),
  });

export function useTransactions(filter: TransactionFilter, limit: number) {
  // Keeps the rows on screen while "show more" fetches the longer page.
  return useQuery({ ...transactionsQuery(filter, limit), placeholderData: keepPreviousData });
}

/** The newest run charge, for "Last execution". */
export function useLastUsage() {
  return useQuery({
    ...transactionsQuery('usage', 1),
    select: (page) => page.rows[0] ?? null,
  });
}
