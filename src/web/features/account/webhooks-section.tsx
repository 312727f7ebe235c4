import { Check, Copy, Webhook } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLanguage } from '#shared/contract/common';
import {
  ACCOUNT_EVENT_TYPES,
  type TAccountEventType,
  type TWebhook,
  WEBHOOK_URL_MAX,
  WEBHOOK_WORKFLOWS_MAX,
} from '#shared/contract/webhooks';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Callout } from '#web/components/ui/callout';
import { Card } from '#web/components/ui/card';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { FormError, FormField } from '#web/components/ui/form-field';
import { toast } from '#web/components/ui/toast';
import { errorMessage } from '#web/lib/error-key';
import { formatDate, formatNumber } from '#web/lib/format';
import { AccountSection } from './account-section';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useEnableWebhook,
  useRedeliverWebhook,
  useRotateWebhookSecret,
  useTestWebhook,
  useWebhookDeliveries,
  useWebhooks,
  useWebhookWorkflowChoices,
} from './api/webhooks';

/** A secret just made (a new endpoint or a rotation): shown this once. */
interface ShownSecret {
  url: string;
  secret: string;
}

/**
 * The person's own webhooks: endpoints that receive their account's events (a run's ending, a skipped
 * schedule, a low balance), signed per Standard Webhooks, with a delivery log each.
 */
export function WebhooksSection() {
  const { t } = useTranslation('account');
  const webhooks = useWebhooks();
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<TAccountEventType[]>(['run.completed', 'run.failed']);
  const [workflowIds, setWorkflowIds] = useState<string[]>([]);
  const [errors, setErrors] = useState<{ url?: string; events?: string; form?: string }>({});
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const list = webhooks.data ?? [];

  const toggle = <T,>(values: T[], value: T, on: boolean) =>
    on ? [...values, value] : values.filter((v) => v !== value);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (!/^https?:\/\/\S+$/.test(url.trim())) found.url = t('webhooks.urlInvalid');
    if (events.length === 0) found.events = t('webhooks.eventsRequired');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = { url: url.trim(), events, ...(workflowIds.length > 0 ? { workflowIds } : {}) };
    create.mutate(body, {
      onSuccess: (answer) => {
        setShown({ url: body.url, secret: answer.secret });
        setUrl('');
        setWorkflowIds([]);
      },
      onError: (err) => setErrors({ form: errorMessage(t, err) }),
    });
  };

  return (
    <AccountSection id="webhooks" texts="webhooks">
      <Card className="mt-4 space-y-6 p-6">
        <form onSubmit={submit} noValidate className="space-y-4" aria-label={t('webhooks.add')}>
          <FormField
            id="webhook-url"
            type="url"
            label={t('webhooks.url')}
            hint={t('webhooks.urlHint')}
            placeholder="https://example.com/flujo-events"
            value={url}
            maxLength={WEBHOOK_URL_MAX}
            onChange={(e) => setUrl(e.target.value)}
            error={errors.url}
            required
          />
          <fieldset aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
            <legend className="mb-1 text-sm font-medium text-slate-900">{t('webhooks.events')}</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {ACCOUNT_EVENT_TYPES.map((event) => (
                <label key={event} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={events.includes(event)}
                    onChange={(e) => setEvents(toggle(events, event, e.target.checked))}
                  />
                  <span>
                    <code className="font-mono" translate="no">
                      {event}
                    </code>{' '}
                    · {t(`webhooks.event.${event}`)}
                  </span>
                </label>
              ))}
            </div>
            {errors.events ? (
              <p id="webhook-events-error" className="mt-1 text-sm text-red-700">
                {errors.events}
              </p>
            ) : null}
          </fieldset>
          <WorkflowChoice
            selected={workflowIds}
            onChange={(id, on) => setWorkflowIds(toggle(workflowIds, id, on))}
          />
          <div>
            <FormError message={errors.form} />
            <Button type="submit" className="mt-2" disabled={create.isPending}>
              <Webhook className="size-4" aria-hidden="true" />
              {create.isPending ? t('webhooks.adding') : t('webhooks.add')}
            </Button>
          </div>
        </form>

        {shown ? <SecretCallout shown={shown} onHide={() => setShown(null)} /> : null}

        {list.length === 0 ? (
          <p className="text-sm text-slate-700">
            {webhooks.isPending ? t('webhooks.loading') : t('webhooks.empty')}
          </p>
        ) : (
          <ul className="divide-y divide-slate-200" aria-label={t('webhooks.listLabel')}>
            {list.map((webhook) => (
              <WebhookRow
                key={webhook.id}
                webhook={webhook}
                onSecret={(secret) => setShown({ url: webhook.url, secret })}
              />
            ))}
          </ul>
        )}
      </Card>
    </AccountSection>
  );
}

function WorkflowChoice({
  selected,
  onChange,
}: {
  selected: string[];
  onChange: (id: string, on: boolean) => void;
}) {
  const { t, i18n } = useTranslation('account');
  const workflows = useWebhookWorkflowChoices();
  const lng = i18n.resolvedLanguage === 'es' ? 'es' : 'en';
  return (
    <details className="rounded-md border border-slate-200 p-3">
      <summary className="cursor-pointer text-sm font-medium text-slate-900">
        {selected.length === 0
          ? t('webhooks.allWorkflows')
          : t('webhooks.someWorkflows', { count: selected.length })}
      </summary>
      <fieldset className="mt-2">
        <legend className="text-sm text-slate-700">{t('webhooks.workflowsHint')}</legend>
        <div className="mt-2 grid gap-1 sm:grid-cols-2">
          {(workflows.data ?? []).map((w) => (
            <label key={w.id} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="size-4"
                checked={selected.includes(w.id)}
                disabled={!selected.includes(w.id) && selected.length >= WEBHOOK_WORKFLOWS_MAX}
                onChange={(e) => onChange(w.id, e.target.checked)}
              />
              {pickLanguage(w.name, lng)}
            </label>
          ))}
        </div>
      </fieldset>
    </details>
  );
}

function SecretCallout({ shown, onHide }: { shown: ShownSecret; onHide: () => void }) {
  const { t } = useTranslation('account');
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied(true);
    } catch {
      toast({ title: t('webhooks.copyFailed'), variant: 'destructive' });
    }
  };
  return (
    <Callout tone="success" icon={Webhook} role="status" data-testid="webhook-secret">
      <p className="font-semibold">{t('webhooks.secretTitle', { url: shown.url })}</p>
      <p className="mt-1 text-sm">{t('webhooks.secretBody')}</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code
          className="rounded bg-white px-2 py-1 font-mono text-sm break-all text-slate-900"
          data-testid="webhook-secret-value"
        >
          {shown.secret}
        </code>
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          {copied ? (
            <Check className="size-4" aria-hidden="true" />
          ) : (
            <Copy className="size-4" aria-hidden="true" />
          )}
          {copied ? t('webhooks.copied') : t('webhooks.copy')}
        </Button>
        <Button variant="ghost" size="sm" onClick={onHide}>
          {t('webhooks.hide')}
        </Button>
      </div>
    </Callout>
  );
}

function WebhookRow({ webhook, onSecret }: { webhook: TWebhook; onSecret: (secret: string) => void }) {
  const { t, i18n } = useTranslation('account');
  const lng = i18n.resolvedLanguage;
  const [logOpen, setLogOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const test = useTestWebhook();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const enable = useEnableWebhook();
  const failed = (err: unknown) =>
    toast({ title: t('webhooks.actionFailed'), description: errorMessage(t, err), variant: 'destructive' });
  const logId = `webhook-log-${webhook.id}`;

  return (
    <li className="space-y-3 py-4" data-testid="webhook-row">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-slate-900">{webhook.url}</p>
          <p className="mt-1 text-sm text-slate-700">
            {/* Event names are the protocol's identifiers, the same in every language. */}
            <span className="font-mono" translate="no">
              {webhook.events.join(', ')}
            </span>{' '}
            ·{' '}
            {webhook.workflowIds === null
              ? t('webhooks.allWorkflows')
              : t('webhooks.someWorkflows', { count: webhook.workflowIds.length })}{' '}
            · {t('webhooks.created', { date: formatDate(webhook.createdAt, { time: false, language: lng }) })}
          </p>
          {webhook.previousSecretExpiresAt ? (
            <p className="text-sm text-slate-700">
              {t('webhooks.overlap', {
                date: formatDate(webhook.previousSecretExpiresAt, { language: lng }),
              })}
            </p>
          ) : null}
        </div>
        {webhook.disabledReason ? (
          <Badge tone="danger">{t(`webhooks.disabled.${webhook.disabledReason}`)}</Badge>
        ) : (
          <Badge tone="success">{t('webhooks.enabled')}</Badge>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={test.isPending}
          onClick={() =>
            test.mutate(webhook.id, {
              onSuccess: () => {
                setLogOpen(true);
                toast({ title: t('webhooks.testQueued'), variant: 'success' });
              },
              onError: failed,
            })
          }
        >
          {t('webhooks.test')}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={logOpen}
          aria-controls={logId}
          onClick={() => setLogOpen(!logOpen)}
        >
          {logOpen ? t('webhooks.hideLog') : t('webhooks.showLog')}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={rotate.isPending}
          onClick={() => rotate.mutate(webhook.id, { onSuccess: (a) => onSecret(a.secret), onError: failed })}
        >
          {t('webhooks.rotate')}
        </Button>
        {webhook.disabledReason ? (
          <Button
            variant="secondary"
            size="sm"
            disabled={enable.isPending}
            onClick={() => enable.mutate(webhook.id, { onError: failed })}
          >
            {t('webhooks.enable')}
          </Button>
        ) : null}
        <Button variant="ghost" size="sm" onClick={() => setConfirmDelete(true)}>
          {t('webhooks.delete')}
        </Button>
      </div>
      {logOpen ? <DeliveryLog id={logId} webhookId={webhook.id} /> : null}
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t('webhooks.confirmTitle')}
        description={t('webhooks.confirmBody', { url: webhook.url })}
        confirmLabel={t('webhooks.delete')}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(webhook.id, {
            onSuccess: () => {
              setConfirmDelete(false);
              toast({ title: t('webhooks.deleted'), variant: 'success' });
            },
            onError: failed,
          })
        }
      />
    </li>
  );
}

function DeliveryLog({ id, webhookId }: { id: string; webhookId: string }) {
  const { t, i18n } = useTranslation('account');
  const lng = i18n.resolvedLanguage;
  const deliveries = useWebhookDeliveries(webhookId, true);
  const redeliver = useRedeliverWebhook();
  const rows = deliveries.data ?? [];
  return (
    <div id={id} className="rounded-md border border-slate-200" data-testid="webhook-log">
      <h3 className="sr-only">{t('webhooks.logTitle')}</h3>
      {rows.length === 0 ? (
        <p className="p-3 text-sm text-slate-700">
          {deliveries.isPending ? t('webhooks.loading') : t('webhooks.logEmpty')}
        </p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label={t('webhooks.logTitle')}>
          {rows.map((d) => (
            <li
              key={d.id}
              className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm"
              data-testid="webhook-delivery"
            >
              <div className="min-w-0 text-slate-800">
                <p>
                  <code className="font-mono" translate="no">
                    {d.event}
                  </code>{' '}
                  · <span data-testid="webhook-delivery-status">{t(`webhooks.status.${d.status}`)}</span> ·{' '}
                  {formatDate(d.createdAt, { language: lng })}
                </p>
                <p className="text-slate-700">
                  {t('webhooks.attempts', { count: d.attempts })}
                  {d.responseStatus !== null ? ` · HTTP ${d.responseStatus}` : ''}
                  {d.latencyMs !== null ? ` · ${formatNumber(d.latencyMs, lng)} ms` : ''}
                  {d.lastError ? ` · ${d.lastError}` : ''}
                </p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                disabled={redeliver.isPending || d.status === 'pending'}
                onClick={() =>
                  redeliver.mutate(
                    { id: webhookId, deliveryId: d.id },
                    {
                      onError: (err) =>
                        toast({
                          title: t('webhooks.actionFailed'),
                          description: errorMessage(t, err),
                          variant: 'destructive',
                        }),
                    },
                  )
                }
              >
                {t('webhooks.redeliver')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
