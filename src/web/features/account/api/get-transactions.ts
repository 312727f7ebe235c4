import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  CREDITS_PATHS,
  type TRANSACTION_FILTERS,
  type TUserTransaction,
} from '../../../../shared/contract/credits';
import { ApiError } from '../../../lib/api';

export type TransactionFilter = (typeof TRANSACTION_FILTERS)[number] | 'all';

export interface TransactionPage {
  rows: TUserTransaction[];
  /** Every row matching the filter (the X-Total-Count header), not just the ones loaded. */
  total: number;
}

async function errorFrom(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { error?: unknown; code?: unknown } | null;
    const message = typeof body?.error === 'string' && body.error ? body.error : `HTTP ${res.status}`;
    return new ApiError(message, res.status, typeof body?.code === 'string' ? body.code : undefined, body);
  } catch {
    return new ApiError('Request failed', res.status, undefined, text);
  }
}

/** The shared `api()` returns only the body; the history also needs its total from the header. */
export async function getTransactions(filter: TransactionFilter, limit: number): Promise<TransactionPage> {
  const search = new URLSearchParams({ limit: String(limit) });
  if (filter !== 'all') search.set('type', filter);
  const res = await fetch(`${CREDITS_PATHS.transactions}?${search}`, {
    credentials: 'include',
    headers: { accept: 'application/json' },
  });
  if (!res.ok) throw await errorFrom(res);
  const rows = (await res.json()) as TUserTransaction[];
  const total = Number(res.headers.get('x-total-count'));
  return { rows, total: Number.isFinite(total) && total >= 0 ? total : rows.length };
}

// The first key is the path, so a purchase elsewhere refreshes every page of it by that prefix.
export const transactionsQuery = (filter: TransactionFilter, limit: number) =>
  queryOptions({
    queryKey: [CREDITS_PATHS.transactions, { filter, limit }] as const,
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
