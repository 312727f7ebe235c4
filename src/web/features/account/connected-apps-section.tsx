import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_KEY_LIMIT_MAX } from '#shared/contract/api-keys';
import type { TConnectedApp } from '#shared/contract/oauth';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { FormField } from '#web/components/ui/form-field';
import { toast } from '#web/components/ui/toast';
import { errorMessage } from '#web/lib/error-key';
import { formatDate, formatNumber } from '#web/lib/format';
import { AccountSection } from './account-section';
import { useConnectedApps, useDisconnectApp, useUpdateConnectedApp } from './api/connected-apps';

/** One app's monthly limit, edited in place: empty means no limit. */
function LimitForm({ app, onDone }: { app: TConnectedApp; onDone: () => void }) {
  const { t } = useTranslation('account');
  const update = useUpdateConnectedApp();
  const [value, setValue] = useState(app.monthlyCreditLimit === null ? '' : String(app.monthlyCreditLimit));
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const limit = value.trim() === '' ? null : Number(value);
    if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > API_KEY_LIMIT_MAX)) {
      setError(t('connectedApps.limitInvalid'));
      return;
    }
    update.mutate(
      { id: app.id, monthlyCreditLimit: limit },
      {
        onSuccess: () => {
          toast({ title: t('connectedApps.limitSaved', { name: app.name }), variant: 'success' });
          onDone();
        },
        onError: (err) => setError(errorMessage(t, err)),
      },
    );
  };
  const id = `connected-app-limit-${app.id}`;
  return (
    <form onSubmit={submit} noValidate className="mt-2 flex flex-wrap items-end gap-2">
      <div className="w-48">
        <FormField
          id={id}
          type="number"
          inputMode="numeric"
          min={1}
          label={t('connectedApps.limit')}
          hint={t('connectedApps.limitHint')}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={error}
          autoFocus
        />
      </div>
      <Button type="submit" size="sm" disabled={update.isPending}>
        {t('connectedApps.save')}
      </Button>
      <Button variant="ghost" size="sm" onClick={onDone}>
        {t('connectedApps.cancel')}
      </Button>
    </form>
  );
}

/** The apps the person connected with OAuth (Claude, ChatGPT...): what each spent, its limit, disconnect. */
export function ConnectedAppsSection() {
  const { t, i18n } = useTranslation('account');
  const apps = useConnectedApps();
  const disconnect = useDisconnectApp();
  const [editing, setEditing] = useState<string | null>(null);
  const [doomed, setDoomed] = useState<TConnectedApp | null>(null);
  const lng = i18n.resolvedLanguage;
  const list = apps.data ?? [];

  const confirmDisconnect = () => {
    if (!doomed) return;
    disconnect.mutate(doomed.id, {
      onSuccess: () => {
        toast({ title: t('connectedApps.disconnected', { name: doomed.name }), variant: 'success' });
        setDoomed(null);
      },
      onError: (err) =>
        toast({
          title: t('connectedApps.disconnectFailed'),
          description: errorMessage(t, err),
          variant: 'destructive',
        }),
    });
  };

  return (
    <AccountSection id="connected-apps" texts="connectedApps">
      <Card className="mt-4 p-6">
        {list.length === 0 ? (
          <p className="text-sm text-slate-700">
            {apps.isPending ? t('connectedApps.loading') : t('connectedApps.empty')}
          </p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label={t('connectedApps.listLabel')}>
            {list.map((app) => (
              <li key={app.id} className="py-3" data-testid="connected-app-row">
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <div className="min-w-0">
                    <p className="font-medium break-words text-slate-900">{app.name}</p>
                    <p className="text-sm text-slate-700">
                      {t('connectedApps.granted', {
                        date: formatDate(app.grantedAt, { time: false, language: lng }),
                      })}{' '}
                      ·{' '}
                      {app.lastUsedAt
                        ? t('connectedApps.lastUsed', { date: formatDate(app.lastUsedAt, { language: lng }) })
                        : t('connectedApps.neverUsed')}
                    </p>
                    <p className="text-sm text-slate-700">
                      {app.monthlyCreditLimit === null
                        ? t('connectedApps.spentNoLimit', { spent: formatNumber(app.spentThisMonth, lng) })
                        : t('connectedApps.spentOfLimit', {
                            spent: formatNumber(app.spentThisMonth, lng),
                            limit: formatNumber(app.monthlyCreditLimit, lng),
                          })}
                    </p>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => setEditing(editing === app.id ? null : app.id)}
                      aria-expanded={editing === app.id}
                      aria-label={t('connectedApps.editLimitNamed', { name: app.name })}
                    >
                      {t('connectedApps.editLimit')}
                    </Button>
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => setDoomed(app)}
                      aria-label={t('connectedApps.disconnectNamed', { name: app.name })}
                    >
                      {t('connectedApps.disconnect')}
                    </Button>
                  </div>
                </div>
                {editing === app.id ? <LimitForm app={app} onDone={() => setEditing(null)} /> : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <ConfirmDialog
        open={doomed !== null}
        onOpenChange={(open) => {
          if (!open) setDoomed(null);
        }}
        title={t('connectedApps.confirmTitle', { name: doomed?.name ?? '' })}
        description={t('connectedApps.confirmBody')}
        confirmLabel={t('connectedApps.confirm')}
        onConfirm={confirmDisconnect}
        pending={disconnect.isPending}
      />
    </AccountSection>
  );
}
