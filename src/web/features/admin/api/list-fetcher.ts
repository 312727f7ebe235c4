import { keepPreviousData, queryOptions, type QueryKey } from '@tanstack/react-query';
import { apiPage, type ApiPage } from '#web/lib/api';

/** One page of an admin list and the total the server counted for the same filters. */
export type Page<T> = ApiPage<T>;

export type ListParams = Record<string, string | number | undefined>;

/** Builds `?q=&status=&limit=&offset=`, leaving out empty values so "all" means no filter. */
export function listQuery(params: ListParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** GETs one page of an admin list with its total. */
export async function fetchPage<T>(path: string, params: ListParams): Promise<Page<T>> {
  return apiPage<T>(`${path}${listQuery(params)}`);
}

/** The query of one page of the admin list at `path`; the current page stays on screen while the next one loads. */
export function adminPageQuery<T>(queryKey: QueryKey, path: string, params: object) {
  return queryOptions({
    queryKey,
    // The lists' query types are the contract's inputs (each field unknown until parsed): the values are the
    // strings and numbers the screens put in.
    queryFn: () => fetchPage<T>(path, params as ListParams),
    placeholderData: keepPreviousData,
  });
}
