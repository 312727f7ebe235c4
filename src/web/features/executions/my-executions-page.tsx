import { History } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pickLanguage } from '#shared/contract/common';
import type { TExecution } from '#shared/contract/executions';
import { Button } from '#web/components/ui/button';
import { DataTable, type Column } from '#web/components/ui/data-table';
import { RunStatusBadge } from '#web/components/ui/run-status-badge';
import { formatDate } from '#web/lib/format';
import { useExecutions } from './api/get-executions';
import { ResultCell } from './result-cell';

export default function MyExecutionsPage() {
  const { t, i18n } = useTranslation('executions');
  const runs = useExecutions();
  const lng = i18n.resolvedLanguage ?? 'en';

  const columns: Array<Column<TExecution>> = [
    {
      id: 'workflow',
      header: t('columns.workflow'),
      className: 'w-[28%] truncate',
      cell: (run) => (
        <WorkflowName runId={run.id} name={run.workflowName ? pickLanguage(run.workflowName, lng) : null} />
      ),
    },
    {
      id: 'status',
      header: t('columns.status'),
      className: 'w-[13%]',
      cardAside: true,
      cell: (run) => (
        <span className="inline-flex flex-col items-start gap-1">
          <RunStatusBadge status={run.status} />
          {run.origin === 'web' ? null : (
            <span className="text-xs text-slate-700">{t(`runOrigin.${run.origin}`, { ns: 'common' })}</span>
          )}
        </span>
      ),
    },
    {
      id: 'result',
      header: t('columns.result'),
      className: 'w-[25%]',
      cell: (run) => <ResultCell run={run} />,
    },
    {
      id: 'credits',
      header: t('columns.credits'),
      className: 'w-[13%] whitespace-nowrap text-right tabular-nums text-slate-900',
      cell: (run) => <Credits run={run} />,
    },
    {
      id: 'date',
      header: t('columns.date'),
      className: 'w-[21%] text-slate-700',
      cell: (run) => formatDate(run.createdAt, { language: lng }) ?? t('dateUnavailable'),
    },
  ];

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{t('title')}</h1>
      <p className="mt-2 text-slate-700">{t('subtitle')}</p>
      <div className="mt-8">
        {runs.data?.length === 0 ? (
          // No runs yet is a starting point rather than an empty table: it points to the catalogue.
          <div className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
            <History className="size-10 text-slate-500" aria-hidden="true" />
            <p className="mt-3 text-lg font-semibold text-slate-900">{t('empty.title')}</p>
            <p className="mt-1 text-sm text-slate-700">{t('empty.body')}</p>
            <Button asChild className="mt-5">
              <Link to="/workflows">{t('empty.cta')}</Link>
            </Button>
          </div>
        ) : (
          <DataTable
            label={t('title')}
            columns={columns}
            rows={runs.data}
            rowKey={(run) => run.id}
            isLoading={runs.isPending}
            error={runs.error}
            errorMessage={t('loadError')}
            loadingLabel={t('loading')}
            empty={t('empty.title')}
            rowTestId="execution-row"
            cardTestId="execution-card"
            tableClassName="table-fixed"
          />
        )}
      </div>
    </div>
  );
}

/** The row's way to its run page: the workflow's name (or the deleted label) links there. */
function WorkflowName({ runId, name }: { runId: string; name: string | null }) {
  const { t } = useTranslation('executions');
  return (
    <Link
      to={`/my-workflows/${runId}`}
      className="rounded font-medium text-brand-700 underline-offset-2 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      data-testid="execution-link"
    >
      {name ?? <span className="italic">{t('workflowDeleted')}</span>}
      <span className="sr-only"> {t('openRun')}</span>
    </Link>
  );
}

/** A refunded run's charge came back: say so instead of showing it as spent. */
function Credits({ run }: { run: TExecution }) {
  const { t } = useTranslation('executions');
  if (run.creditsRefunded <= 0) return run.creditsUsed;
  return (
    <span className="text-sky-800" data-testid="execution-refunded">
      {t('creditsRefunded', { count: run.creditsUsed })}
    </span>
  );
}
