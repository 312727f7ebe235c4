import { Check, Copy, KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  API_KEY_LIMIT_MAX,
  API_KEY_NAME_MAX,
  type TApiKey,
  type TApiKeyCreated,
} from '#shared/contract/api-keys';
import { Button } from '#web/components/ui/button';
import { Callout } from '#web/components/ui/callout';
import { Card } from '#web/components/ui/card';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { FormError, FormField } from '#web/components/ui/form-field';
import { toast } from '#web/components/ui/toast';
import { errorMessage } from '#web/lib/error-key';
import { formatDate, formatNumber } from '#web/lib/format';
import { isAdminUser, useMe } from '#web/lib/session';
import { Badge } from '#web/components/ui/badge';
import { AccountSection } from './account-section';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from './api/api-keys';

/** The end of the chosen day in the reader's time zone: a key "until 31 May" works all of that day. */
function endOfDay(date: string): string {
  return new Date(`${date}T23:59:59.999`).toISOString();
}

/** Personal API keys for scripts and AI agents: create one (shown once), see them, revoke them. */
export function ApiKeysSection() {
  const { t, i18n } = useTranslation('account');
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('');
  const [limit, setLimit] = useState('');
  // Only an admin may make an admin key (the server refuses anyone else with 403): the choice shows for them.
  const isAdmin = isAdminUser(useMe().data);
  const [adminScope, setAdminScope] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; limit?: string; form?: string }>({});
  const [created, setCreated] = useState<TApiKeyCreated | null>(null);
  const [copied, setCopied] = useState(false);
  const [doomed, setDoomed] = useState<TApiKey | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = t('apiKeys.nameRequired');
    const limitValue = limit.trim() === '' ? undefined : Number(limit);
    if (
      limitValue !== undefined &&
      (!Number.isInteger(limitValue) || limitValue < 1 || limitValue > API_KEY_LIMIT_MAX)
    ) {
      found.limit = t('apiKeys.limitInvalid');
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(
      {
        name: name.trim(),
        ...(expiry ? { expiresAt: endOfDay(expiry) } : {}),
        ...(limitValue !== undefined ? { monthlyCreditLimit: limitValue } : {}),
        ...(isAdmin && adminScope ? { scope: 'admin' as const } : {}),
      },
      {
        onSuccess: (key) => {
          setCreated(key);
          setCopied(false);
          setName('');
          setExpiry('');
          setLimit('');
          setAdminScope(false);
        },
        onError: (err) => setErrors({ form: errorMessage(t, err, { CONFLICT: 'account:apiKeys.tooMany' }) }),
      },
    );
  };

  const copy = async (key: string) => {
    try {
      await navigator.clipboard.writeText(key);
      setCopied(true);
    } catch {
      toast({ title: t('apiKeys.copyFailed'), variant: 'destructive' });
    }
  };

  const confirmRevoke = () => {
    if (!doomed) return;
    revoke.mutate(doomed.id, {
      onSuccess: () => {
        toast({ title: t('apiKeys.revoked', { name: doomed.name }), variant: 'success' });
        if (created?.id === doomed.id) setCreated(null);
        setDoomed(null);
      },
      onError: (err) =>
        toast({
          title: t('apiKeys.revokeFailed'),
          description: errorMessage(t, err),
          variant: 'destructive',
        }),
    });
  };

  const lng = i18n.resolvedLanguage;
  const list = keys.data ?? [];
  return (
    <AccountSection id="api-keys" texts="apiKeys">
      <Card className="mt-4 space-y-6 p-6">
        <form
          onSubmit={submit}
          noValidate
          className="grid gap-4 sm:grid-cols-3"
          aria-label={t('apiKeys.create')}
        >
          <FormField
            id="api-key-name"
            label={t('apiKeys.name')}
            value={name}
            maxLength={API_KEY_NAME_MAX}
            onChange={(e) => setName(e.target.value)}
            error={errors.name}
            required
          />
          <FormField
            id="api-key-expiry"
            type="date"
            label={t('apiKeys.expiry')}
            hint={t('apiKeys.expiryHint')}
            value={expiry}
            onChange={(e) => setExpiry(e.target.value)}
          />
          <FormField
            id="api-key-limit"
            type="number"
            inputMode="numeric"
            min={1}
            label={t('apiKeys.limit')}
            hint={t('apiKeys.limitHint')}
            value={limit}
            onChange={(e) => setLimit(e.target.value)}
            error={errors.limit}
          />
          {isAdmin ? (
            <div className="sm:col-span-3">
              <label className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  className="size-4"
                  checked={adminScope}
                  aria-describedby="api-key-scope-hint"
                  onChange={(e) => setAdminScope(e.target.checked)}
                />
                {t('apiKeys.adminScope')}
              </label>
              <p id="api-key-scope-hint" className="text-sm text-slate-700">
                {t('apiKeys.adminScopeHint')}
              </p>
            </div>
          ) : null}
          <div className="sm:col-span-3">
            <FormError message={errors.form} />
            <Button type="submit" className="mt-2" disabled={create.isPending}>
              <KeyRound className="size-4" aria-hidden="true" />
              {create.isPending ? t('apiKeys.creating') : t('apiKeys.create')}
            </Button>
          </div>
        </form>

        {created ? (
          <Callout tone="success" icon={KeyRound} role="status" data-testid="api-key-created">
            <p className="font-semibold">{t('apiKeys.createdTitle', { name: created.name })}</p>
            <p className="mt-1 text-sm">{t('apiKeys.createdBody')}</p>
            <div className="mt-3 flex flex-wrap items-center gap-2">
              <code
                className="rounded bg-white px-2 py-1 font-mono text-sm break-all text-slate-900"
                data-testid="api-key-value"
              >
                {created.key}
              </code>
              <Button variant="secondary" size="sm" onClick={() => void copy(created.key)}>
                {copied ? (
                  <Check className="size-4" aria-hidden="true" />
                ) : (
                  <Copy className="size-4" aria-hidden="true" />
                )}
                {copied ? t('apiKeys.copied') : t('apiKeys.copy')}
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setCreated(null)}>
                {t('apiKeys.hide')}
              </Button>
            </div>
          </Callout>
        ) : null}

        {list.length === 0 ? (
          <p className="text-sm text-slate-700">
            {keys.isPending ? t('apiKeys.loading') : t('apiKeys.empty')}
          </p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label={t('apiKeys.listLabel')}>
            {list.map((key) => (
              <li
                key={key.id}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
                data-testid="api-key-row"
              >
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">
                    {key.name}{' '}
                    {key.scope === 'admin' ? <Badge tone="brand">{t('apiKeys.adminBadge')}</Badge> : null}
                  </p>
                  <p className="text-sm text-slate-700">
                    <code className="font-mono">{key.prefix}…</code> ·{' '}
                    {t('apiKeys.created', {
                      date: formatDate(key.createdAt, { time: false, language: lng }),
                    })}{' '}
                    ·{' '}
                    {key.lastUsedAt
                      ? t('apiKeys.lastUsed', { date: formatDate(key.lastUsedAt, { language: lng }) })
                      : t('apiKeys.neverUsed')}{' '}
                    ·{' '}
                    {key.expiresAt
                      ? t('apiKeys.expires', {
                          date: formatDate(key.expiresAt, { time: false, language: lng }),
                        })
                      : t('apiKeys.noExpiry')}
                  </p>
                  <p className="text-sm text-slate-700">
                    {key.monthlyCreditLimit === null
                      ? t('apiKeys.spentNoLimit', { spent: formatNumber(key.spentThisMonth, lng) })
                      : t('apiKeys.spentOfLimit', {
                          spent: formatNumber(key.spentThisMonth, lng),
                          limit: formatNumber(key.monthlyCreditLimit, lng),
                        })}
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setDoomed(key)}
                  aria-label={t('apiKeys.revokeNamed', { name: key.name })}
                >
                  {t('apiKeys.revoke')}
                </Button>
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
        title={t('apiKeys.confirmTitle', { name: doomed?.name ?? '' })}
        description={t('apiKeys.confirmBody')}
        confirmLabel={t('apiKeys.confirm')}
        onConfirm={confirmRevoke}
        pending={revoke.isPending}
      />
    </AccountSection>
  );
}
