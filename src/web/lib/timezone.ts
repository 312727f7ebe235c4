import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { TSessionUser } from '#shared/contract/auth';
import { api } from './api-client';
import { queryKeys } from './query-keys';

let zone: string | undefined;
/**
 * The browser's own IANA time zone, read once a page: building the formatter that tells it costs more than a
 * screen's render, and screens ask at every render.
 */
export function browserTimezone(): string {
  zone ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return zone;
}

/** Every IANA zone the browser knows, with the given one kept even if it is not listed. */
export function timezoneNames(current: string): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return listed.includes(current) ? listed : [current, ...listed];
}

/**
 * A signed-in person whose time zone the server does not know yet gets the browser's, once (then it is
 * theirs to change in account settings; a later browser elsewhere does not overwrite it).
 */
export function useRememberTimezone(user: TSessionUser | null | undefined): void {
  const queryClient = useQueryClient();
  const sent = useRef(false);
  useEffect(() => {
    if (!user || user.timezone || sent.current) return;
    sent.current = true;
    api.patch('/api/account/profile', { body: { timezone: browserTimezone() } }).then(
      // Only the time zone: the rest of this answer may be older than a read of the session that ended after it
      // (an address verified meanwhile), and must not undo it.
      (saved) =>
        queryClient.setQueryData<TSessionUser | null>(queryKeys.me, (current) =>
          current ? { ...current, timezone: saved.timezone } : current,
        ),
      () => undefined,
    );
  }, [user, queryClient]);
}
