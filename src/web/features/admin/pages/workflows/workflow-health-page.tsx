import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toast } from '#web/components/ui/toast';
import type { THealthWindow, TWorkflowHealth } from '#shared/contract/operations';
import { pickLanguage } from '#shared/contract/common';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { useAdminWorkflow } from '#web/features/admin/api/get-workflow';
import { useWorkflowHealth } from '#web/features/admin/api/get-workflow-health';
import { usePauseWorkflow } from '#web/features/admin/api/pause-workflow';
import { BarChart } from '#web/features/admin/components/bar-chart';
import { Loaded } from '#web/features/admin/components/loaded';
import { PageHeader } from '#web/features/admin/components/page-header';
import { errorMessage } from '#web/lib/error-key';
import { formatDateTime, formatDay, formatDuration, formatNumber } from '#web/lib/format';

// The run-status badge's hues (dashboard-charts.tsx), each at least 3:1 against white.
const SERIES = [
  { key: 'completed', color: '#15803d' },
  { key: 'failed', color: '#b91c1c' },
  { key: 'expired', color: '#b45309' },
  { key: 'refused', color: '#64748b' },
] as const;

function WindowCard({ title, window }: { title: string; window: THealthWindow }) {
  const { t, i18n } = useTranslation('admin');
  const rows: [string, string][] = [
    [t('health.finished'), formatNumber(window.finished)],
    [t('health.failed'), formatNumber(window.failed)],
    [t('health.expired'), formatNumber(window.expired)],
    [t('health.refused'), formatNumber(window.refused)],
    [t('health.median'), window.medianMs === null ? '—' : formatDuration(window.medianMs, i18n.language)],
    [t('health.p95'), window.p95Ms === null ? '—' : formatDuration(window.p95Ms, i18n.language)],
  ];
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="text-sm font-semibold text-slate-700">{title}</h2>
      <p className="mt-1 text-3xl font-bold tabular-nums text-slate-900">
        {window.successRate === null ? '—' : `${window.successRate}%`}
      </p>
      <p className="text-xs text-slate-700">{t('health.successRate')}</p>
      <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-700">{label}</dt>
            <dd className="text-right tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Health({ health, name }: { health: TWorkflowHealth; name: string }) {
  const { t, i18n } = useTranslation('admin');
  const pause = usePauseWorkflow();
  const paused = health.pausedAt !== null;
  const toggle = () =>
    pause.mutate(
      { id: health.workflowId, paused: !paused },
      {
        onSuccess: () =>
          toast({ title: t(paused ? 'health.resumed' : 'health.pausedNow'), variant: 'success' }),
        onError: (err) =>
          toast({ title: t('common.error'), description: errorMessage(t, err), variant: 'destructive' }),
      },
    );
  const failures = health.month.failed + health.month.expired;
  return (
    <div className="space-y-4">
      <PageHeader
        title={name}
        subtitle={t('health.subtitle')}
        action={
          <Button variant={paused ? 'primary' : 'secondary'} onClick={toggle} disabled={pause.isPending}>
            {t(paused ? 'health.resume' : 'health.pause')}
          </Button>
        }
      />
      {paused ? (
        <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {t(health.pausedReason === 'auto' ? 'health.pausedAuto' : 'health.pausedManual', {
            when: formatDateTime(health.pausedAt, i18n.language),
          })}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <WindowCard title={t('health.day')} window={health.day} />
        <WindowCard title={t('health.week')} window={health.week} />
        <WindowCard title={t('health.month')} window={health.month} />
      </div>
      <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <BarChart
          title={t('health.chart')}
          summary={t('health.chartSummary', {
            completed: formatNumber(health.month.completed),
            failures: formatNumber(failures),
          })}
          xAxisLabel={t('charts.day')}
          yAxisLabel={t('health.runs')}
          series={SERIES.map((s) => ({ ...s, label: t(`health.${s.key}`) }))}
          points={health.daily.map((d) => ({
            x: d.day,
            xLabel: formatDay(d.day),
            values: { completed: d.completed, failed: d.failed, expired: d.expired, refused: d.refused },
          }))}
          mode="stacked"
        />
      </section>
      <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <h2 className="mb-2 text-base font-semibold text-slate-900">{t('health.incidents')}</h2>
        {health.incidents.length === 0 ? (
          <p className="text-sm text-slate-700">{t('health.noIncidents')}</p>
        ) : (
          <ul className="space-y-1 text-sm text-slate-800">
            {health.incidents.map((i) => (
              <li key={i.id} className="flex flex-wrap items-center gap-2">
                <Badge tone={i.resolvedAt ? 'success' : 'danger'}>
                  {t(i.resolvedAt ? 'health.resolved' : 'health.open')}
                </Badge>
                {t(`health.rule.${i.kind}`)} · {formatDateTime(i.openedAt, i18n.language)}
                {i.resolvedAt ? ` → ${formatDateTime(i.resolvedAt, i18n.language)}` : ''}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** /admin/workflows/:id: a workflow's health with its daily chart, incidents, pause and resume (decision 145). */
export default function WorkflowHealthPage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('admin');
  const health = useWorkflowHealth(id);
  const workflow = useAdminWorkflow(id);
  const name = workflow.data ? pickLanguage(workflow.data.name, i18n.language) : t('health.title');
  return (
    <div>
      <Link to="/admin/workflows" className="mb-4 inline-block text-sm font-medium text-brand-700 underline">
        {t('health.back')}
      </Link>
      <Loaded query={health}>{(data) => (data ? <Health health={data} name={name} /> : null)}</Loaded>
    </div>
  );
}
