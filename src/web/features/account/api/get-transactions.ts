import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CREDITS_PATHS, type TRANSACTION_FILTERS, type TUserTransaction } from '#shared/contract/credits';
import { apiPage } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export type TransactionFilter = (typeof TRANSACTION_FILTERS)[number] | 'all';

export interface TransactionPage {
  rows: TUserTransaction[];
  /** Every row matching the filter (the X-Total-Count header), not just the ones loaded. */
  total: number;
}

/** One page of the history, newest first, with the count of every row matching the filter. */
export async function getTransactions(filter: TransactionFilter, limit: number): Promise<TransactionPage> {
  const search = new URLSearchParams({ limit: String(limit) });
  if (filter !== 'all') search.set('type', filter);
  const { items, total } = await apiPage<TUserTransaction>(`${CREDITS_PATHS.transactions}?${search}`);
  return { rows: items, total };
}

// The first key is the path, so a purchase elsewhere refreshes every page of it by that prefix.
export const transactionsQuery = (filter: TransactionFilter, limit: number) =>
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
