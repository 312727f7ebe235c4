import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { api } from './api';

/** The default fetcher: a query's first key is the path it GETs. */
const defaultQueryFn: QueryFunction = ({ queryKey }) => {
  const [path] = queryKey;
  if (typeof path !== 'string') throw new Error('The first query key must be an API path');
  return api(path);
};

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { queryFn: defaultQueryFn, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
