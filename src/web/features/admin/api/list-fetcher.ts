import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query';
import type { ApiPage } from '#web/lib/api-client';

/** One page of an admin list and the total the server counted for the same filters. */
export type Page<T> = ApiPage<T>;

/** The query of one page of an admin list; the current page stays on screen while the next one loads. */
export function adminPageQuery<T, K extends QueryKey>(queryKey: K, fetchPage: () => Promise<Page<T>>) {
  return queryOptions({ queryKey, queryFn: fetchPage, placeholderData: keepPreviousData });
}
