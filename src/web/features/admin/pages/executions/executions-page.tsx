import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RunStatusBadge } from '#web/components/ui/run-status-badge';
import type { TAdminExecution } from '#shared/contract/admin';
import { RUN_ORIGINS, type TRunOrigin } from '#shared/contract/executions';
import { pickLanguage } from '#shared/contract/common';
import { RUN_FAILURE_TEXTS } from '#shared/i18n/run-failures';
import { useAdminExecutions } from '#web/features/admin/api/lists';
import type { Column } from '#web/components/ui/data-table';
import { AdminList, dateColumn, type ListFilter } from '#web/features/admin/components/admin-list';
import { formatNumber } from '#web/lib/format';
import { chosen, useListState } from '#web/features/admin/lib/use-list-state';

/** The status filter: all, completed, running, failed, pending (expired runs show under all). */
const STATUS_FILTERS = ['completed', 'running', 'failed', 'pending', 'expired'] as const;

export default function ExecutionsPage() {
  const { t, i18n } = useTranslation('admin');
  const list = useListState();
  const [origin, setOrigin] = useState<TRunOrigin | ''>('');
  const executions = useAdminExecutions({
    ...list.params,
    status: chosen(STATUS_FILTERS, list.filter),
    origin: origin || undefined,
  });
  // Admins read the technical detail; a run without one (a workflow that failed without a word) says why
  // as its customer reads it.
  const failureOf = (e: TAdminExecution): string | null =>
    e.errorMessage ||
    (e.errorCode ? RUN_FAILURE_TEXTS[i18n.language.startsWith('es') ? 'es' : 'en'][e.errorCode] : null);

  const columns: Array<Column<TAdminExecution>> = [
    {
      id: 'workflow',
      header: t('executions.columns.workflow'),
      cell: (e) =>
        // The run's detail (answers, delivery timeline, ledger rows) opens from its workflow's name.
        e.workflow ? (
          <Link
            to={`/admin/executions/${e.id}`}
            aria-label={t('runDetail.open', { name: pickLanguage(e.workflow.name, i18n.language) })}
            className="font-medium text-slate-900 underline decoration-slate-300 underline-offset-4 hover:decoration-slate-900"
          >
            {pickLanguage(e.workflow.name, i18n.language)}
          </Link>
        ) : (
          <span className="italic text-slate-700">{t('common.workflowDeleted')}</span>
        ),
    },
    { id: 'user', header: t('executions.columns.user'), cell: (e) => e.user?.email ?? '—' },
    {
      id: 'status',
      header: t('executions.columns.status'),
      cell: (e) => (
        <div className="space-y-1">
          <RunStatusBadge status={e.status} />
          <p className="text-xs text-slate-700">{t(`runOrigin.${e.origin}`, { ns: 'common' })}</p>
          {failureOf(e) ? (
            <p className="max-w-[16rem] truncate text-xs text-red-800" title={failureOf(e) ?? undefined}>
              {failureOf(e)}
            </p>
          ) : null}
        </div>
      ),
    },
    {
      id: 'result',
      header: t('executions.columns.result'),
      cell: (e) =>
        e.outputType ? (
          <span>
            <span className="font-medium">{t(`output.${e.outputType}`)}</span>
            {e.outputFilename ? (
              <span className="block text-xs text-slate-700">{e.outputFilename}</span>
            ) : null}
          </span>
        ) : (
          '—'
        ),
    },
    {
      id: 'credits',
      header: t('executions.columns.credits'),
      className: 'text-right tabular-nums',
      cell: (e) => formatNumber(e.creditsUsed),
    },
    dateColumn(t('executions.columns.date')),
  ];

  const filter: ListFilter = {
    label: t('executions.status'),
    options: STATUS_FILTERS.map((s) => ({ value: s, label: t(`runStatus.${s}`, { ns: 'common' }) })),
  };

  const originFilter = {
    label: t('executions.origin'),
    options: RUN_ORIGINS.map((o) => ({ value: o, label: t(`runOrigin.${o}`, { ns: 'common' }) })),
    value: origin,
    onChange: (value: string) => setOrigin(value as TRunOrigin | ''),
  };

  return (
    <AdminList
      section="executions"
      list={list}
      page={executions}
      filter={filter}
      secondFilter={originFilter}
      columns={columns}
    />
  );
}
