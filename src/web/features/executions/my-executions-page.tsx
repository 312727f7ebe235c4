import { History } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pickLanguage } from '../../../shared/contract/common';
import type { TExecution } from '../../../shared/contract/executions';
import { Button } from '../../components/ui/button';
import { RunStatusBadge } from '../../components/ui/run-status-badge';
import { Spinner } from '../../components/ui/spinner';
import { useExecutions } from './api/get-executions';
import { formatRunDate } from './format-run-date';
import { ResultCell } from './result-cell';

export default function MyExecutionsPage() {
  const { t } = useTranslation('executions');
  const runs = useExecutions();

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{t('title')}</h1>
      <p className="mt-2 text-slate-700">{t('subtitle')}</p>
      <div className="mt-8">
        {runs.isPending ? (
          <Spinner label={t('loading')} className="min-h-64" />
        ) : runs.isError ? (
          <p role="alert" className="rounded-lg bg-red-50 p-4 text-sm text-red-800">
            {t('loadError')}
          </p>
        ) : runs.data.length === 0 ? (
          <div className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
            <History className="size-10 text-slate-500" aria-hidden="true" />
            <p className="mt-3 text-lg font-semibold text-slate-900">{t('empty.title')}</p>
            <p className="mt-1 text-sm text-slate-700">{t('empty.body')}</p>
            <Button asChild className="mt-5">
              <Link to="/workflows">{t('empty.cta')}</Link>
            </Button>
          </div>
        ) : (
          <>
            <RunsTable runs={runs.data} />
            <RunCards runs={runs.data} />
          </>
        )}
      </div>
    </div>
  );
}

function useRunText() {
  const { t, i18n } = useTranslation('executions');
  const lng = i18n.resolvedLanguage ?? 'en';
  return {
    name: (run: TExecution) => (run.workflowName ? pickLanguage(run.workflowName, lng) : null),
    date: (run: TExecution) => formatRunDate(run.createdAt, lng) ?? t('dateUnavailable'),
  };
}

function WorkflowName({ name }: { name: string | null }) {
  const { t } = useTranslation('executions');
  return name ? (
    <span className="font-medium text-slate-900">{name}</span>
  ) : (
    <span className="italic text-slate-700">{t('workflowDeleted')}</span>
  );
}

/** Wide screens: a table. */
function RunsTable({ runs }: { runs: TExecution[] }) {
  const { t } = useTranslation('executions');
  const text = useRunText();
  return (
    <div className="hidden overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm md:block">
      <table className="w-full table-fixed text-left text-sm">
        <caption className="sr-only">{t('title')}</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-700">
          <tr>
            <th scope="col" className="w-[30%] px-4 py-3 font-semibold">
              {t('columns.workflow')}
            </th>
            <th scope="col" className="w-[13%] px-4 py-3 font-semibold">
              {t('columns.status')}
            </th>
            <th scope="col" className="w-[25%] px-4 py-3 font-semibold">
              {t('columns.result')}
            </th>
            <th scope="col" className="w-[10%] px-4 py-3 text-right font-semibold">
              {t('columns.credits')}
            </th>
            <th scope="col" className="w-[22%] px-4 py-3 font-semibold">
              {t('columns.date')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {runs.map((run) => (
            <tr key={run.id} data-testid="execution-row">
              <td className="truncate px-4 py-3">
                <WorkflowName name={text.name(run)} />
              </td>
              <td className="px-4 py-3">
                <RunStatusBadge status={run.status} />
              </td>
              <td className="px-4 py-3">
                <ResultCell run={run} />
              </td>
              <td className="px-4 py-3 text-right tabular-nums text-slate-900">{run.creditsUsed}</td>
              <td className="px-4 py-3 text-slate-700">{text.date(run)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Phones: one card per run, the same facts stacked. */
function RunCards({ runs }: { runs: TExecution[] }) {
  const { t } = useTranslation('executions');
  const text = useRunText();
  return (
    <ul className="space-y-3 md:hidden" aria-label={t('title')}>
      {runs.map((run) => (
        <li
          key={run.id}
          className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
          data-testid="execution-card"
        >
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0 break-words">
              <WorkflowName name={text.name(run)} />
            </div>
            <RunStatusBadge status={run.status} />
          </div>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-slate-700">{t('columns.result')}</dt>
            <dd className="min-w-0">
              <ResultCell run={run} />
            </dd>
            <dt className="text-slate-700">{t('columns.credits')}</dt>
            <dd className="tabular-nums text-slate-900">{run.creditsUsed}</dd>
            <dt className="text-slate-700">{t('columns.date')}</dt>
            <dd className="text-slate-900">{text.date(run)}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
