import { Bell } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pickLanguage } from '#shared/contract/pick-language';
import type { TNotification } from '#shared/contract/notifications';
import { cn } from '#web/lib/utils';
import { useMarkAllRead, useMarkRead, useNotifications, useUnreadCount } from './api';

/** Where following a notification leads. */
function targetOf(n: TNotification): string {
  if (n.runId) return `/my-workflows/${n.runId}`;
  if (n.kind === 'low_balance' || n.kind === 'schedule_uncovered') return '/buy-credits';
  return '/account';
}

function NotificationText({ n }: { n: TNotification }) {
  const { t, i18n } = useTranslation();
  const workflow = n.params.workflowName ? pickLanguage(n.params.workflowName, i18n.language) : '';
  const reason = n.params.reason ? t(`bell.reason.${n.params.reason}`) : '';
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(n.createdAt),
  );
  const text = (() => {
    switch (n.kind) {
      case 'run_completed':
        return t('bell.kind.run_completed', { workflow, count: n.params.credits ?? 0 });
      case 'run_failed':
        return t(n.params.status === 'expired' ? 'bell.kind.run_expired' : 'bell.kind.run_failed', {
          workflow,
        });
      case 'schedule_skipped':
        return t('bell.kind.schedule_skipped', { workflow, name: n.params.savedInputName ?? '', reason });
      case 'schedule_paused':
        return t('bell.kind.schedule_paused', { workflow, name: n.params.savedInputName ?? '' });
      case 'schedule_uncovered':
        return t('bell.kind.schedule_uncovered', { workflow, name: n.params.savedInputName ?? '' });
      case 'low_balance':
        return t('bell.kind.low_balance', {
          count: n.params.balance ?? 0,
          threshold: n.params.threshold ?? 0,
        });
    }
  })();
  return (
    <>
      <span className={cn('block text-sm', n.read ? 'text-slate-700' : 'font-semibold text-slate-900')}>
        {!n.read ? <span className="sr-only">{t('bell.unread')} </span> : null}
        {text}
      </span>
      <span className="mt-0.5 block text-xs text-slate-600">{when}</span>
    </>
  );
}

/**
 * The bell in the top bar: the unread count (live), and a list of the newest notifications. Following one
 * marks it read; "mark all as read" clears the count.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const unread = useUnreadCount(true).data?.unread ?? 0;
  const list = useNotifications(open);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const items = list.data?.items ?? [];

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger asChild>
        <button
          type="button"
          data-testid="notification-bell"
          aria-label={t('bell.button', { count: unread })}
          className="relative rounded-full p-2 text-slate-800 hover:bg-slate-100"
        >
          <Bell className="size-5" aria-hidden="true" />
          {unread > 0 ? (
            <span
              aria-hidden="true"
              data-testid="notification-count"
              className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs font-bold leading-5 text-white"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          collisionPadding={8}
          aria-label={t('bell.title')}
          data-testid="notification-list"
          className="z-50 w-[min(24rem,calc(100vw-1rem))] rounded-xl border border-slate-200 bg-white shadow-xl focus:outline-none"
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
            <h2 className="text-base font-semibold text-slate-900">{t('bell.title')}</h2>
            <button
              type="button"
              disabled={unread === 0 || markAll.isPending}
              onClick={() => markAll.mutate()}
              className="rounded-md px-2 py-1 text-sm font-medium text-brand-800 hover:bg-brand-50 disabled:text-slate-500 disabled:hover:bg-transparent"
            >
              {t('bell.markAll')}
            </button>
          </div>
          {list.isPending ? (
            <p className="px-4 py-6 text-sm text-slate-700">{t('loading')}</p>
          ) : items.length === 0 ? (
            <p className="px-4 py-6 text-sm text-slate-700">{t('bell.empty')}</p>
          ) : (
            <ul className="max-h-[60vh] divide-y divide-slate-100 overflow-y-auto">
              {items.map((n) => (
                <li key={n.id} className={n.read ? undefined : 'bg-brand-50/60'}>
                  <Link
                    to={targetOf(n)}
                    data-testid="notification-item"
                    onClick={() => {
                      if (!n.read) markRead.mutate(n.id);
                      setOpen(false);
                    }}
                    className="block px-4 py-3 hover:bg-slate-50 focus:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-600"
                  >
                    <NotificationText n={n} />
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <div className="border-t border-slate-200 px-4 py-2 text-right">
            <Link
              to="/account#notifications"
              onClick={() => setOpen(false)}
              className="text-sm font-medium text-brand-800 underline-offset-2 hover:underline"
            >
              {t('bell.settings')}
            </Link>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
