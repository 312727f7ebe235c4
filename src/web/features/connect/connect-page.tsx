import { BarChart3, CircleAlert, Play, ShieldCheck, Wallet } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { API_KEY_LIMIT_MAX } from '#shared/contract/api-keys';
import { Button } from '#web/components/ui/button';
import { Callout } from '#web/components/ui/callout';
import { Card } from '#web/components/ui/card';
import { FormError, FormField } from '#web/components/ui/form-field';
import { Spinner } from '#web/components/ui/spinner';
import { errorMessage } from '#web/lib/error-key';
import { isAdminUser, useMe } from '#web/lib/session';
import { useApproveOAuthRequest, useDenyOAuthRequest, useOAuthRequest } from './api/oauth-requests';

const ABILITIES = [
  { key: 'run', Icon: Play },
  { key: 'read', Icon: BarChart3 },
  { key: 'balance', Icon: Wallet },
] as const;
/** Asked for by an app that manages workflows (n8n's Flujo nodes, decision 181): an administrator's to grant. */
const ADMIN_ABILITY = { key: 'admin', Icon: ShieldCheck } as const;

/**
 * The consent screen an app such as Claude's connector sends the person to (decision 163): which app (only
 * what it said at registration), what it may do, a monthly credit limit, Approve or Deny. Either answer sends
 * the browser back to the app; signing in first is the route guard's job.
 */
export default function ConnectPage() {
  const { t } = useTranslation('connect');
  const { uid = '' } = useParams();
  const request = useOAuthRequest(uid);
  const approve = useApproveOAuthRequest(uid);
  const me = useMe();
  const deny = useDenyOAuthRequest(uid);
  const [limit, setLimit] = useState('');
  const [limitError, setLimitError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const busy = approve.isPending || deny.isPending || approve.isSuccess || deny.isSuccess;

  const leave = ({ redirectTo }: { redirectTo: string }) => window.location.assign(redirectTo);
  const failed = (err: unknown) => setFormError(errorMessage(t, err));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = limit.trim() === '' ? undefined : Number(limit);
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > API_KEY_LIMIT_MAX)) {
      setLimitError(t('limitInvalid'));
      return;
    }
    setLimitError(null);
    setFormError(null);
    approve.mutate(value === undefined ? {} : { monthlyCreditLimit: value }, {
      onSuccess: leave,
      onError: failed,
    });
  };

  if (request.isPending) return <Spinner label={t('loading')} className="min-h-[50vh]" />;
  if (request.isError) {
    return (
      <div className="mx-auto w-full max-w-lg px-4 py-12">
        <h1 className="mb-4 text-2xl font-bold tracking-tight text-slate-900">{t('goneTitle')}</h1>
        <Callout tone="danger" icon={CircleAlert} role="alert">
          {errorMessage(t, request.error)}
        </Callout>
      </div>
    );
  }
  const { client, redirectUri, admin } = request.data;
  const name = client.name ?? client.id;
  const abilities = admin ? [...ABILITIES, ADMIN_ABILITY] : ABILITIES;
  // The server refuses it too; the page says so before anyone tries.
  const refused = admin && !isAdminUser(me.data);
  return (
    <div className="mx-auto flex w-full max-w-lg flex-col px-4 py-8 sm:py-12">
      <Card className="p-6 sm:p-8">
        <div className="flex items-start gap-4">
          {client.logoUri ? (
            <img
              src={client.logoUri}
              alt=""
              referrerPolicy="no-referrer"
              className="size-12 shrink-0 rounded-lg border border-slate-200 object-contain"
            />
          ) : null}
          <div className="min-w-0">
            <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t('title', { name })}</h1>
            {client.uri ? (
              <p className="mt-1 text-sm break-all text-slate-700">
                <a
                  href={client.uri}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-medium text-brand-700 underline-offset-4 hover:underline"
                >
                  {client.uri}
                </a>
              </p>
            ) : null}
          </div>
        </div>
        <p className="mt-4 text-sm text-slate-700">{t('intro', { name })}</p>
        <h2 className="mt-6 text-base font-semibold text-slate-900">{t('abilitiesHeading')}</h2>
        <ul className="mt-2 space-y-2">
          {abilities.map(({ key, Icon }) => (
            <li key={key} className="flex items-start gap-3 text-sm text-slate-800">
              <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-700" />
              <span>{t(`abilities.${key}`)}</span>
            </li>
          ))}
        </ul>
        <form onSubmit={submit} noValidate className="mt-6 space-y-4" aria-label={t('formLabel')}>
          <FormField
            id="connect-limit"
            type="number"
            inputMode="numeric"
            min={1}
            max={API_KEY_LIMIT_MAX}
            label={t('limit')}
            hint={t('limitHint')}
            value={limit}
            onChange={(e) => {
              setLimit(e.target.value);
              setLimitError(null);
            }}
            error={limitError}
          />
          {refused ? (
            <Callout tone="danger" icon={CircleAlert} role="alert">
              {t('adminOnly')}
            </Callout>
          ) : null}
          <FormError message={formError} />
          <p className="text-xs break-all text-slate-600">{t('returnsTo', { uri: redirectUri })}</p>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() => {
                setFormError(null);
                deny.mutate(undefined, { onSuccess: leave, onError: failed });
              }}
            >
              {t('deny')}
            </Button>
            <Button type="submit" disabled={busy || refused}>
              {approve.isPending ? t('approving') : t('approve')}
            </Button>
          </div>
        </form>
      </Card>
      <p className="mt-6 text-center text-sm text-slate-700">{t('revokeLater')}</p>
    </div>
  );
}
