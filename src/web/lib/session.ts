import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { TSessionUser } from '#shared/contract/auth';
import { api } from './api-client';
import { queryKeys } from './query-keys';

const FIVE_MINUTES = 5 * 60 * 1000;

/**
 * Whether the page was sent to a visitor: the server writes into the head whether the request for the page
 * carried a session cookie (src/server/plugins/web-page.ts), so a visitor's first screen does not ask for a
 * session only to be told 401. Read once: after a sign-in or sign-out the question goes to the server.
 */
let visitorAtLoad =
  typeof document !== 'undefined' &&
  document.querySelector('meta[name="flujo-session"]')?.getAttribute('content') === 'none';

/** The signed-in user, or null: any failure of the call means signed out. */
export const meQuery = queryOptions({
  queryKey: queryKeys.me,
  queryFn: async (): Promise<TSessionUser | null> => {
    if (visitorAtLoad) {
      visitorAtLoad = false;
      return null;
    }
    try {
      return await api.get('/api/auth/me');
    } catch {
      return null;
    }
  },
  staleTime: FIVE_MINUTES,
});

export function useMe() {
  return useQuery(meQuery);
}

/**
 * Reads the session user again after a change on the server (a verification, a charge, a purchase). A read
 * already under way is dropped first: it may have left the server before the change, and an invalidation alone
 * would take its answer as the fresh one when it is the page's first read.
 */
export async function refreshMe(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: queryKeys.me });
  await queryClient.invalidateQueries({ queryKey: queryKeys.me });
}

/** The guard and the menus read isAdmin, tolerating the snake_case spelling too. */
export function isAdminUser(user: Pick<TSessionUser, 'isAdmin' | 'is_admin'> | null | undefined): boolean {
  return Boolean(user?.isAdmin ?? user?.is_admin);
}
