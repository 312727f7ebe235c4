import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TSessionUser } from '#shared/contract/auth';
import { api } from './api';
import { queryKeys } from './query-keys';

const FIVE_MINUTES = 5 * 60 * 1000;

/** The signed-in user, or null: any failure of the call means signed out. */
export const meQuery = queryOptions({
  queryKey: queryKeys.me,
  queryFn: async (): Promise<TSessionUser | null> => {
    try {
      return await api<TSessionUser>('/api/auth/me');
    } catch {
      return null;
    }
  },
  staleTime: FIVE_MINUTES,
});

export function useMe() {
  return useQuery(meQuery);
}

/** The guard and the menus read isAdmin, tolerating the snake_case spelling too. */
export function isAdminUser(user: Pick<TSessionUser, 'isAdmin' | 'is_admin'> | null | undefined): boolean {
  return Boolean(user?.isAdmin ?? user?.is_admin);
}
