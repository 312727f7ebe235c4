import { MutationCache, QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';
import { api, ApiError } from './api';
import { queryKeys } from './query-keys';

/** The default fetcher: a query's first key is the path it GETs. */
const defaultQueryFn: QueryFunction = ({ queryKey }) => {
  const [path] = queryKey;
  if (typeof path !== 'string') throw new Error('The first query key must be an API path');
  return api(path);
};

/**
 * A 401 means the server no longer knows the session (it expired, was revoked from another device, or its
 * cookie was deleted). The cached user would keep the screens believing otherwise, so it becomes null and
 * the route guard sends the person to sign in. The me query answers null itself instead of failing, so
 * this never feeds back into it.
 */
function forgetSessionOn401(client: QueryClient, error: unknown): void {
  if (!(error instanceof ApiError) || error.status !== 401) return;
  if (client.getQueryData(queryKeys.me) === null) return;
  client.setQueryData(queryKeys.me, null);
}

export function createQueryClient(): QueryClient {
  // Every query and mutation passes through these two caches, so one handler covers every call.
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error) => forgetSessionOn401(client, error) }),
    mutationCache: new MutationCache({ onError: (error) => forgetSessionOn401(client, error) }),
    defaultOptions: {
      queries: { queryFn: defaultQueryFn, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  return client;
}
