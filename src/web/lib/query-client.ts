import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { queryKeys } from './query-keys';

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
      // No default query function: every query names its typed call (api-client.ts).
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  return client;
}
