import { Activity, Coins, Users, Workflow, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Card } from '#web/components/ui/card';
import { RunStatusBadge } from '#web/components/ui/run-status-badge';
import type { TAdminStats } from '#shared/contract/admin';
import { pickLanguage } from '#shared/contract/common';
import { useOpenIncidents } from '#web/features/admin/api/get-incidents';
import { useAdminStats } from '#web/features/admin/api/get-stats';
import { Loaded } from '#web/features/admin/components/loaded';
import { PageHeader } from '#web/features/admin/components/page-header';
import { formatNumber } from '#web/lib/format';
import { formatDateTime } from '#web/features/admin/lib/format';
import { CreditsChart, RunsChart } from './dashboard-charts';

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

/** A card of the dashboard's lists: its title, then the list, or `empty` when it has nothing to show. */
function ListCard({ title, empty, children }: { title: string; empty: string | null; children: ReactNode }) {
  return (
    <Card className="min-w-0 p-5">
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      {empty ? <p className="mt-3 text-sm text-slate-700">{empty}</p> : children}
    </Card>
  );
}

function TopWorkflows({ stats }: { stats: TAdminStats }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <ListCard
      title={t('dashboard.topWorkflows')}
      empty={stats.topWorkflows.length === 0 ? t('dashboard.noWorkflows') : null}
    >
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
    </ListCard>
  );
}

function RecentActivity({ stats }: { stats: TAdminStats }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <ListCard
      title={t('dashboard.recentActivity')}
      empty={stats.recentActivity.length === 0 ? t('dashboard.noActivity') : null}
    >
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
    </ListCard>
  );
}

/** Workflows failing now (decision 146), above everything else: each opens its workflow's health page. */
function OpenIncidents() {
  const { t, i18n } = useTranslation('admin');
  const incidents = useOpenIncidents();
  if (!incidents.data || incidents.data.length === 0) return null;
  return (
    <section
      aria-labelledby="open-incidents"
      className="mb-6 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-900"
    >
      <h2 id="open-incidents" className="text-base font-semibold">
        {t('dashboard.openIncidents', { count: incidents.data.length })}
      </h2>
      <ul className="mt-2 space-y-1">
        {incidents.data.map((i) => (
          <li key={i.id}>
            <Link
              to={`/admin/workflows/${i.workflow.id}/health`}
              className="font-medium underline underline-offset-4"
            >
              {pickLanguage(i.workflow.name, i18n.language)}
            </Link>{' '}
            · {t(`health.rule.${i.kind}`)} · {formatDateTime(i.openedAt)}
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation('admin');
  const stats = useAdminStats();
  return (
    <div>
      <PageHeader title={t('dashboard.title')} subtitle={t('dashboard.subtitle')} />
      <OpenIncidents />
      <Loaded query={stats}>{(data) => (data ? <Overview stats={data} /> : null)}</Loaded>
    </div>
  );
}

function Overview({ stats }: { stats: TAdminStats }) {
  const { t } = useTranslation('admin');
  return (
    <div className="space-y-6">
      <section aria-label={t('dashboard.totals')} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Total label={t('dashboard.users')} value={stats.totals.users} icon={Users} />
        <Total label={t('dashboard.workflows')} value={stats.totals.workflows} icon={Workflow} />
        <Total label={t('dashboard.executions')} value={stats.totals.executions} icon={Activity} />
        <Total
          label={t('dashboard.creditsDistributed')}
          value={stats.totals.creditsDistributed}
          icon={Coins}
        />
      </section>
      <div className="grid gap-6 xl:grid-cols-2">
        <Card className="min-w-0 p-5">
          <RunsChart days={stats.runsPerDay} />
        </Card>
        <Card className="min-w-0 p-5">
          <CreditsChart days={stats.creditsPerDay} />
        </Card>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <TopWorkflows stats={stats} />
        <RecentActivity stats={stats} />
      </div>
    </div>
  );
}
