import { LogOut, Monitor, Smartphone } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TAccountSession } from '#shared/contract/account';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/toast';
import { errorMessage } from '#web/lib/error-key';
import { useSignOut } from '#web/lib/sign-out';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession, useSessions } from '../api/sessions';
import { relativeTime } from '../relative-time';
import { SettingsCard } from './settings-card';
import { countryName, deviceName, isPhone } from './session-device';

/** The signed-in devices, each with its own sign-out, and "sign out of all other devices". */
export function SessionsCard() {
  const { t } = useTranslation('account');
  const sessions = useSessions();
  const revokeOthers = useRevokeOtherSessions();
  const run = () =>
    revokeOthers.mutate(undefined, {
      onSuccess: ({ revoked }) =>
        toast({
          title: t('settings.sessions.done'),
          description: t('settings.sessions.doneBody', { count: revoked }),
          variant: 'success',
        }),
      onError: (err) =>
        toast({
          title: t('settings.sessions.error'),
          description: errorMessage(t, err),
          variant: 'destructive',
        }),
    });
  return (
    <SettingsCard section="sessions">
      {sessions.isPending ? (
        <Spinner label={t('settings.sessions.loading')} className="min-h-20" />
      ) : sessions.data ? (
        <ul className="divide-y divide-slate-100" aria-label={t('settings.sessions.listLabel')}>
          {sessions.data.map((s) => (
            <SessionRow key={s.id} session={s} />
          ))}
        </ul>
      ) : (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {errorMessage(t, sessions.error)}
        </p>
      )}
      {/* Always offered: devices may have signed in since this list was read. */}
      {sessions.data || sessions.isError ? (
        <div className="mt-4">
          <Button
            variant="secondary"
            className="h-auto min-h-10 py-2"
            onClick={run}
            disabled={revokeOthers.isPending}
          >
            <LogOut className="size-4" aria-hidden="true" />
            {revokeOthers.isPending ? t('settings.sessions.running') : t('settings.sessions.submit')}
          </Button>
        </div>
      ) : null}
    </SettingsCard>
  );
}

function SessionRow({ session }: { session: TAccountSession }) {
  const { t, i18n } = useTranslation('account');
  const navigate = useNavigate();
  const revoke = useRevokeSession();
  const signOut = useSignOut();
  const name = deviceName(t, session);
  const country = countryName(session.country, i18n.resolvedLanguage ?? 'en');
  const place = [country, session.network].filter(Boolean).join(' · ') || t('settings.sessions.unknownPlace');
  const ago = relativeTime(session.lastUsedAt, new Date());
  const lastUse = session.current
    ? t('settings.sessions.activeNow')
    : t('settings.sessions.lastUsed', { when: ago ? t(`relative.${ago.unit}`, ago) : '' });
  const Icon = isPhone(session) ? Smartphone : Monitor;

  const signOutHere = () => signOut.mutate(undefined, { onSettled: () => void navigate('/') });
  const signOutThere = () =>
    revoke.mutate(session.id, {
      onSuccess: () => toast({ title: t('settings.sessions.oneDone', { device: name }), variant: 'success' }),
      onError: (err) =>
        toast({
          title: t('settings.sessions.oneError'),
          description: errorMessage(t, err),
          variant: 'destructive',
        }),
    });
  const pending = session.current ? signOut.isPending : revoke.isPending;

  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3" data-testid="session-row">
      <Icon className="size-5 shrink-0 text-slate-600" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
          <span className="break-words">{name}</span>
          {session.current ? <Badge tone="success">{t('settings.sessions.thisDevice')}</Badge> : null}
        </p>
        <p className="break-words text-sm text-slate-700">{place}</p>
        <p className="text-xs text-slate-700">{lastUse}</p>
      </div>
      <Button
        variant="ghost"
        size="sm"
        onClick={session.current ? signOutHere : signOutThere}
        disabled={pending}
        aria-label={t('settings.sessions.signOutOne', { device: name })}
      >
        <LogOut className="size-4" aria-hidden="true" />
        {t('settings.sessions.signOut')}
      </Button>
    </li>
  );
}
