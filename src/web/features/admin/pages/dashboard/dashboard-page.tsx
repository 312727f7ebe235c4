import { Activity, Coins, Users, Workflow, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Card } from '#web/components/ui/card';
import { RunStatusBadge } from '#web/components/ui/run-status-badge';
import { Spinner } from '#web/components/ui/spinner';
import type { TAdminStats } from '#shared/contract/admin';
import { pickLanguage } from '#shared/contract/common';
import { useAdminStats } from '#web/features/admin/api/get-stats';
import { PageHeader } from '#web/features/admin/components/page-header';
import { formatNumber } from '#web/lib/format';
import { formatDateTime } from '#web/features/admin/lib/format';
import { CreditsChart, RunsChart } from './dashboard-charts';
import { errorMessage } from '#web/lib/error-key';

function Total({ label, value, icon: Icon }: { label: string; value: number; icon: LucideIcon }) {
  return (
    <Card className="flex items-center gap-4 p-5">
      <span className="rounded-lg bg-brand-50 p-3 text-brand-700">
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <div>
        <p className="text-sm font-medium text-slate-700">{label}</p>
        <p className="text-2xl font-bold tabular-nums text-slate-900">{formatNumber(value)}</p>
      </div>
    </Card>
  );
}

function TopWorkflows({ stats }: { stats: TAdminStats }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <Card className="min-w-0 p-5">
      <h2 className="text-base font-semibold text-slate-900">{t('dashboard.topWorkflows')}</h2>
      {stats.topWorkflows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">{t('dashboard.noWorkflows')}</p>
      ) : (
        <ol className="mt-3 divide-y divide-slate-100">
          {stats.topWorkflows.map((w, i) => (
            <li key={w.id} className="flex items-center justify-between gap-3 py-2.5 text-sm">
              <span className="flex min-w-0 items-center gap-3">
                <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-slate-100 text-xs font-semibold text-slate-800">
                  {i + 1}
                </span>
                <span className="truncate font-medium text-slate-900">
                  {pickLanguage(w.name, i18n.language)}
                </span>
              </span>
              <span className="shrink-0 tabular-nums text-slate-700">
                {t('dashboard.runs', { count: w.executionCount, formatted: formatNumber(w.executionCount) })}
              </span>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function RecentActivity({ stats }: { stats: TAdminStats }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <Card className="min-w-0 p-5">
      <h2 className="text-base font-semibold text-slate-900">{t('dashboard.recentActivity')}</h2>
      {stats.recentActivity.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">{t('dashboard.noActivity')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {stats.recentActivity.map((r) => (
            <li key={r.id} className="flex items-start justify-between gap-3 py-2.5 text-sm">
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900">
                  {r.workflow ? pickLanguage(r.workflow.name, i18n.language) : t('common.workflowDeleted')}
                </p>
                <p className="truncate text-slate-700">{r.user?.email ?? '—'}</p>
              </div>
              <div className="flex shrink-0 flex-col items-end gap-1">
                <RunStatusBadge status={r.status} />
                <time dateTime={r.createdAt} className="text-xs text-slate-700">
                  {formatDateTime(r.createdAt)}
                </time>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation('admin');
  const stats = useAdminStats();
  return (
    <div>
      <PageHeader title={t('dashboard.title')} subtitle={t('dashboard.subtitle')} />
      {stats.isLoading ? (
        <Spinner label={t('common.loading')} />
      ) : stats.error ? (
        <p role="alert" className="text-red-800">
          {t('common.loadError', { message: errorMessage(t, stats.error) })}
        </p>
      ) : stats.data ? (
        <div className="space-y-6">
          <section aria-label={t('dashboard.totals')} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
            <Total label={t('dashboard.users')} value={stats.data.totals.users} icon={Users} />
            <Total label={t('dashboard.workflows')} value={stats.data.totals.workflows} icon={Workflow} />
            <Total label={t('dashboard.executions')} value={stats.data.totals.executions} icon={Activity} />
            <Total
              label={t('dashboard.creditsDistributed')}
              value={stats.data.totals.creditsDistributed}
              icon={Coins}
            />
          </section>
          <div className="grid gap-6 xl:grid-cols-2">
            <Card className="min-w-0 p-5">
              <RunsChart days={stats.data.runsPerDay} />
            </Card>
            <Card className="min-w-0 p-5">
              <CreditsChart days={stats.data.creditsPerDay} />
            </Card>
          </div>
          <div className="grid gap-6 lg:grid-cols-2">
            <TopWorkflows stats={stats.data} />
            <RecentActivity stats={stats.data} />
          </div>
        </div>
      ) : null}
    </div>
  );
}
