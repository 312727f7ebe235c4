import { useState } from 'react';
import { useDebouncedValue } from './use-debounced-value';

const PAGE_SIZE = 20;

export type ListState = ReturnType<typeof useListState>;

/**
 * Search text, one filter and the page of an admin list. Changing the search or the filter goes back to
 * the first page, so a narrower result never opens on an empty page.
 */
export function useListState(pageSize = PAGE_SIZE) {
  const [search, setSearchText] = useState('');
  const [filter, setFilterValue] = useState('');
  const [page, setPage] = useState(0);
  const q = useDebouncedValue(search.trim());
  const [lastQ, setLastQ] = useState(q);
  // A settled search starts from the first page (adjusting state during render, as React recommends).
  if (q !== lastQ) {
    setLastQ(q);
    setPage(0);
  }
  return {
    search,
    setSearch: setSearchText,
    filter,
    setFilter: (value: string) => {
      setFilterValue(value);
      setPage(0);
    },
    page,
    setPage,
    pageSize,
    q,
    params: { q, limit: pageSize, offset: page * pageSize },
  };
}

/** The filter's value as one of `options` (what the list's query takes), or undefined for "all". */
export function chosen<T extends string>(options: readonly T[], value: string): T | undefined {
  return options.find((option) => option === value);
}
