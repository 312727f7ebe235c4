import { useTranslation } from 'react-i18next';
import { RunStatusBadge } from '#web/components/ui/run-status-badge';
import type { TAdminExecution } from '#shared/contract/admin';
import { pickLanguage } from '#shared/contract/common';
import { useAdminExecutions } from '#web/features/admin/api/lists';
import type { Column } from '#web/components/ui/data-table';
import { AdminList, dateColumn, type ListFilter } from '#web/features/admin/components/admin-list';
import { formatNumber } from '#web/lib/format';
import { useListState } from '#web/features/admin/lib/use-list-state';

/** The status filter: all, completed, running, failed, pending (expired runs show under all). */
const STATUS_FILTERS = ['completed', 'running', 'failed', 'pending', 'expired'] as const;

export default function ExecutionsPage() {
  const { t, i18n } = useTranslation('admin');
  const list = useListState();
  const executions = useAdminExecutions({ ...list.params, status: list.filter || undefined });

  const columns: Array<Column<TAdminExecution>> = [
    {
      id: 'workflow',
      header: t('executions.columns.workflow'),
      cell: (e) =>
        e.workflow ? (
          <span className="font-medium text-slate-900">{pickLanguage(e.workflow.name, i18n.language)}</span>
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
          {e.errorMessage ? (
            <p className="max-w-[16rem] truncate text-xs text-red-800" title={e.errorMessage}>
              {e.errorMessage}
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

  return <AdminList section="executions" list={list} page={executions} filter={filter} columns={columns} />;
}
