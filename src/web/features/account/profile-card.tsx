import { Coins, History, ShieldCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TSessionUser } from '#shared/contract/auth';
import { Badge } from '#web/components/ui/badge';
import { Card } from '#web/components/ui/card';
import { IconLink, LinkButton } from '#web/components/ui/link-button';
import { isAdminUser } from '#web/lib/session';
import { useLastUsage } from './api/get-transactions';
import { relativeTime } from './relative-time';

function LastExecution() {
  const { t } = useTranslation('account');
  const { data: last, isPending } = useLastUsage();
  if (isPending) return <span className="text-slate-600">…</span>;
  const ago = last ? relativeTime(last.created_at, new Date()) : null;
  if (!ago) return <span>{t(last ? 'history.dateUnavailable' : 'profile.neverExecuted')}</span>;
  const text =
    ago.unit === 'underHour' ? t('relative.underHour') : t(`relative.${ago.unit}`, { count: ago.count });
  return <time dateTime={last?.created_at}>{text}</time>;
}

export function ProfileCard({ user }: { user: TSessionUser }) {
  const { t } = useTranslation('account');
  const admin = isAdminUser(user);
  const name = user.fullName || user.full_name || t('profile.defaultName');
  const credits = user.credits ?? 0;
  return (
    <Card className="p-6">
      <h2 className="sr-only">{t('profile.heading')}</h2>
      <div className="flex flex-col gap-6 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 items-center gap-4">
          <div
            aria-hidden="true"
            className="flex size-14 shrink-0 items-center justify-center rounded-full bg-brand-100 text-xl font-bold text-brand-800"
          >
            {name.charAt(0).toUpperCase()}
          </div>
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <p className="truncate text-lg font-semibold text-slate-900" data-testid="account-name">
                {name}
              </p>
              <Badge tone={admin ? 'brand' : 'neutral'}>
                {admin ? t('profile.roleAdmin') : t('profile.roleUser')}
              </Badge>
            </div>
            <p className="truncate text-sm text-slate-700">{user.email}</p>
            {admin ? (
              <IconLink to="/admin" icon={ShieldCheck} className="mt-1">
                {t('profile.adminLink')}
              </IconLink>
            ) : null}
          </div>
        </div>
        <LinkButton to="/credits" size="lg" icon={Coins} className="w-full sm:w-auto">
          {t('profile.buyCredits')}
        </LinkButton>
      </div>
      <dl className="mt-6 grid gap-4 border-t border-slate-200 pt-6 sm:grid-cols-2">
        <div className="rounded-lg bg-amber-50 p-4">
          <dt className="text-sm font-medium text-amber-900">{t('profile.balance')}</dt>
          <dd className="mt-1 text-3xl font-bold text-slate-900" data-testid="account-balance">
            {t('profile.credits', { count: credits })}
          </dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-4">
          <dt className="flex items-center gap-1.5 text-sm font-medium text-slate-700">
            <History className="size-4" aria-hidden="true" />
            {t('profile.lastExecution')}
          </dt>
          <dd className="mt-1 text-lg font-semibold text-slate-900" data-testid="last-execution">
            <LastExecution />
          </dd>
        </div>
      </dl>
    </Card>
  );
}
