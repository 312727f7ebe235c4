import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toast } from '#web/components/ui/toast';
import type { TAdminRunDetail, TDeliveryLogEntry } from '#shared/contract/operations';
import { pickLanguage } from '#shared/contract/common';
import { Button } from '#web/components/ui/button';
import { RunStatusBadge } from '#web/components/ui/run-status-badge';
import { useRetryDelivery } from '#web/features/admin/api/retry-delivery';
import { useRunDetail } from '#web/features/admin/api/get-run-detail';
import { Loaded } from '#web/features/admin/components/loaded';
import { PageHeader } from '#web/features/admin/components/page-header';
import { errorMessage } from '#web/lib/error-key';
import { formatDateTime, formatNumber, formatSigned } from '#web/lib/format';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** One entry of the delivery timeline: what was sent or received, and what came of it. */
function LogEntry({ entry }: { entry: TDeliveryLogEntry }) {
  const { t, i18n } = useTranslation('admin');
  const bad = entry.outcome !== 'accepted';
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
        <span className="font-semibold text-slate-900">
          {entry.kind === 'call'
            ? t('runDetail.call', { attempt: entry.attempt ?? 1 })
            : t('runDetail.callback')}
        </span>
        <span className={bad ? 'font-medium text-red-800' : 'font-medium text-green-800'}>
          {entry.httpStatus ? `HTTP ${entry.httpStatus}` : t('runDetail.noStatus')} ·{' '}
          {t(`runDetail.outcome.${entry.outcome}`, { defaultValue: entry.outcome })}
        </span>
        <span className="text-slate-700">{formatDateTime(entry.at, i18n.language)}</span>
        {entry.latencyMs !== null ? (
          <span className="text-slate-700">
            {t('runDetail.latency', { ms: formatNumber(entry.latencyMs) })}
          </span>
        ) : null}
        {entry.responseBytes !== null ? (
          <span className="text-slate-700">
            {t('runDetail.bytes', { bytes: formatNumber(entry.responseBytes) })}
          </span>
        ) : null}
      </div>
      {entry.error ? <p className="mt-1 text-sm text-red-800">{entry.error}</p> : null}
      {entry.excerpt ? (
        <pre className="mt-2 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-2 text-xs text-slate-800">
          {entry.excerpt}
        </pre>
      ) : null}
    </li>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="mb-3 text-base font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

function Detail({ run }: { run: TAdminRunDetail }) {
  const { t, i18n } = useTranslation('admin');
  const retry = useRetryDelivery(run.id);
  const onRetry = () =>
    retry.mutate(undefined, {
      onSuccess: () => toast({ title: t('runDetail.retried'), variant: 'success' }),
      onError: (err) =>
        toast({ title: t('common.error'), description: errorMessage(t, err), variant: 'destructive' }),
    });
  return (
    <div className="space-y-4">
      <PageHeader
        title={pickLanguage(run.workflow.name, i18n.language)}
        subtitle={t('runDetail.subtitle', { user: run.user.email ?? '—', id: run.id })}
        action={
          run.canRetryDelivery ? (
            <Button onClick={onRetry} disabled={retry.isPending}>
              {t('runDetail.retry')}
            </Button>
          ) : undefined
        }
      />
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-800">
        <RunStatusBadge status={run.status} />
        <span>{t(`runOrigin.${run.origin}`, { ns: 'common', defaultValue: run.origin })}</span>
        <span>{t('runDetail.started', { when: formatDateTime(run.createdAt, i18n.language) })}</span>
        {run.completedAt ? (
          <span>{t('runDetail.ended', { when: formatDateTime(run.completedAt, i18n.language) })}</span>
        ) : null}
        <span>{t('runDetail.attempts', { count: run.dispatchAttempts })}</span>
        <Link
          to={`/admin/workflows/${run.workflow.id}/health`}
          className="font-medium text-brand-700 underline underline-offset-4"
        >
          {t('runDetail.workflowHealth')}
        </Link>
      </div>
      {run.errorMessage || run.errorCode ? (
        <p role="status" className="rounded-lg bg-red-50 p-3 text-sm text-red-900">
          {run.errorMessage ?? run.errorCode}
        </p>
      ) : null}
      <Section title={t('runDetail.timeline')}>
        {run.log.length === 0 ? (
          <p className="text-sm text-slate-700">{t('runDetail.noLog')}</p>
        ) : (
          <ol className="space-y-2" aria-live="polite">
            {run.log.map((entry) => (
              <LogEntry key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
      </Section>
      <div className="grid gap-4 lg:grid-cols-2">
        <Section title={t('runDetail.answers')}>
          <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all text-xs text-slate-800">
            {json(run.inputData)}
          </pre>
        </Section>
        <Section title={t('runDetail.result')}>
          {run.outputType || run.outputData ? (
            <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all text-xs text-slate-800">
              {run.outputFilename ?? run.outputUrl ?? ''}
              {json(run.outputData)}
            </pre>
          ) : (
            <p className="text-sm text-slate-700">{t('runDetail.noResult')}</p>
          )}
        </Section>
      </div>
      <Section title={t('runDetail.ledger')}>
        {run.ledger.length === 0 ? (
          <p className="text-sm text-slate-700">{t('runDetail.noLedger')}</p>
        ) : (
          <ul className="space-y-1 text-sm text-slate-800">
            {run.ledger.map((row) => (
              <li key={row.id}>
                {t(`transactionTypes.${row.type}`, { defaultValue: row.type })}: {formatSigned(row.amount)} ·{' '}
                {formatDateTime(row.createdAt, i18n.language)}
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}

/** /admin/executions/:id: a run as the operator reads it (decision 144); live while the run is open. */
export default function RunDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('admin');
  const query = useRunDetail(id);
  return (
    <div>
      <Link to="/admin/executions" className="mb-4 inline-block text-sm font-medium text-brand-700 underline">
        {t('runDetail.back')}
      </Link>
      <Loaded query={query}>{(run) => (run ? <Detail run={run} /> : null)}</Loaded>
    </div>
  );
}
