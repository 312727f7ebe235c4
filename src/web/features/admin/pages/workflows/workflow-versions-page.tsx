import { ArrowLeft, RotateCcw } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { pickLanguage, type TBilingual } from '#shared/contract/common';
import {
  diffVersions,
  type TVersionedField,
  type TWorkflowVersionContent,
  type TWorkflowVersionSummary,
} from '#shared/contract/workflow-versions';
import type { TSurveyQuestion } from '#shared/contract/workflows';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { DataTable, type Column } from '#web/components/ui/data-table';
import { LinkButton } from '#web/components/ui/link-button';
import { Select } from '#web/components/ui/select';
import { toast } from '#web/components/ui/toast';
import { useAdminWorkflow } from '#web/features/admin/api/get-workflow';
import {
  useRestoreVersion,
  useWorkflowVersion,
  useWorkflowVersions,
} from '#web/features/admin/api/workflow-lifecycle';
import { PageHeader } from '#web/features/admin/components/page-header';
import { formatDateTime } from '#web/features/admin/lib/format';
import { errorMessage } from '#web/lib/error-key';

/** A field's value as one readable line or block, in the reader's language where it has two. */
function FieldValue({ field, content }: { field: TVersionedField; content: TWorkflowVersionContent }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.language;
  const value = content[field as keyof TWorkflowVersionContent];
  if (value === null || value === '') return <span className="text-slate-600">—</span>;
  if (field === 'interactionType') return <>{t(`interaction.${content.interactionType}`)}</>;
  if (typeof value === 'number' || typeof value === 'string') {
    return <span className="break-words whitespace-pre-wrap">{String(value)}</span>;
  }
  const both = value as TBilingual;
  return (
    <span className="block space-y-1">
      <span className="block break-words whitespace-pre-wrap">{pickLanguage(both, lng)}</span>
      <span className="block text-xs break-words whitespace-pre-wrap text-slate-700">
        {lng.startsWith('es') ? `EN: ${both.en}` : `ES: ${both.es}`}
      </span>
    </span>
  );
}

function QuestionText({ q }: { q: TSurveyQuestion }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <span className="block">
      <span className="block font-medium">{pickLanguage(q.question, i18n.language)}</span>
      <span className="block text-xs text-slate-700">
        {t(`survey.types.${q.type}`)}
        {q.options.length ? ` · ${q.options.join(', ')}` : ''}
        {q.required === false ? ` · ${t('versions.optional')}` : ''}
      </span>
    </span>
  );
}

/** One row of the side-by-side comparison: what, then the older value beside the newer. */
function DiffRow({
  label,
  before,
  after,
  names,
}: {
  label: string;
  before: ReactNode;
  after: ReactNode;
  /** The two versions' names, shown in each cell on phones (the column headings are hidden there). */
  names: [string, string];
}) {
  const tag = (text: string) => (
    <span className="mb-1 block text-xs font-semibold text-slate-700 sm:hidden">{text}</span>
  );
  return (
    <div className="grid gap-2 border-t border-slate-200 py-3 text-sm sm:grid-cols-[10rem_1fr_1fr] sm:gap-4">
      <div className="font-semibold text-slate-900">{label}</div>
      <div className="rounded-md bg-red-50 px-3 py-2 text-slate-900">
        {tag(names[0])}
        {before}
      </div>
      <div className="rounded-md bg-green-50 px-3 py-2 text-slate-900">
        {tag(names[1])}
        {after}
      </div>
    </div>
  );
}

/** The readable difference between two versions: changed fields, and questions added, removed or changed. */
function VersionDiff({ workflowId, from, to }: { workflowId: string; from: number; to: number }) {
  const { t } = useTranslation('admin');
  const older = useWorkflowVersion(workflowId, from);
  const newer = useWorkflowVersion(workflowId, to);
  if (!older.data || !newer.data) {
    return older.error || newer.error ? (
      <p role="alert" className="text-sm text-red-800">
        {errorMessage(t, older.error ?? newer.error)}
      </p>
    ) : null;
  }
  const diff = diffVersions(older.data.content, newer.data.content);
  const names: [string, string] = [
    t('versions.numbered', { version: from }),
    t('versions.numbered', { version: to }),
  ];
  const none = diff.fields.length === 0 && diff.questions.length === 0;
  return (
    <div data-testid="version-diff">
      <div className="hidden gap-4 pb-2 text-xs font-semibold tracking-wide text-slate-700 uppercase sm:grid sm:grid-cols-[10rem_1fr_1fr]">
        <span />
        <span>{t('versions.numbered', { version: from })}</span>
        <span>{t('versions.numbered', { version: to })}</span>
      </div>
      {none ? <p className="py-3 text-sm text-slate-800">{t('versions.noDifference')}</p> : null}
      {diff.fields.map((field) => (
        <DiffRow
          key={field}
          names={names}
          label={t(`versions.fields.${field}`)}
          before={<FieldValue field={field} content={older.data.content} />}
          after={<FieldValue field={field} content={newer.data.content} />}
        />
      ))}
      {diff.questions.map((change) => (
        <DiffRow
          key={`${change.kind}-${change.id}`}
          names={names}
          label={t(`versions.question.${change.kind}`)}
          before={
            change.kind === 'added' ? (
              <span className="text-slate-600">—</span>
            ) : (
              <QuestionText q={change.before} />
            )
          }
          after={
            change.kind === 'removed' ? (
              <span className="text-slate-600">—</span>
            ) : (
              <QuestionText q={change.after} />
            )
          }
        />
      ))}
    </div>
  );
}

/** A workflow's history: who saved which version when, the difference between two, and restoring one. */
export default function WorkflowVersionsPage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('admin');
  const workflow = useAdminWorkflow(id);
  const versions = useWorkflowVersions(id);
  const restore = useRestoreVersion();
  const [restoring, setRestoring] = useState<number | null>(null);
  const rows = versions.data ?? [];
  const newest = rows[0]?.version ?? null;
  const [chosen, setChosen] = useState<{ from: number; to: number } | null>(null);
  const pair = chosen ?? (newest !== null && newest > 1 ? { from: newest - 1, to: newest } : null);
  const name = workflow.data ? pickLanguage(workflow.data.name, i18n.language) : '';

  const confirmRestore = () => {
    if (restoring === null) return;
    restore.mutate(
      { id, version: restoring },
      {
        onSuccess: () => {
          toast({ title: t('versions.restored', { version: restoring }), variant: 'success' });
          setRestoring(null);
          setChosen(null);
        },
        onError: (err) =>
          toast({
            title: t('versions.restoreError'),
            description: errorMessage(t, err),
            variant: 'destructive',
          }),
      },
    );
  };

  const columns: Array<Column<TWorkflowVersionSummary>> = [
    {
      id: 'version',
      header: t('versions.columns.version'),
      cell: (v) => (
        <span className="flex items-center gap-2 font-medium text-slate-900">
          {t('versions.numbered', { version: v.version })}
          {v.current ? <Badge tone="success">{t('versions.current')}</Badge> : null}
        </span>
      ),
    },
    {
      id: 'author',
      header: t('versions.columns.author'),
      cell: (v) => v.author?.email ?? t('versions.noAuthor'),
    },
    {
      id: 'date',
      header: t('versions.columns.date'),
      cell: (v) => formatDateTime(v.createdAt, i18n.language),
    },
    {
      id: 'note',
      header: t('versions.columns.note'),
      cell: (v) => (v.restoredFrom !== null ? t('versions.restoredFrom', { version: v.restoredFrom }) : '—'),
    },
    {
      id: 'actions',
      actions: true,
      header: <span className="sr-only">{t('common.actions')}</span>,
      className: 'text-right',
      cell: (v) =>
        v.current ? null : (
          <Button variant="secondary" size="sm" onClick={() => setRestoring(v.version)}>
            <RotateCcw className="size-4" aria-hidden="true" />
            {t('versions.restoreNamed', { version: v.version })}
          </Button>
        ),
    },
  ];

  const options = rows.map((v) => (
    <option key={v.version} value={v.version}>
      {t('versions.numbered', { version: v.version })}
    </option>
  ));

  return (
    <div className="space-y-6">
      <PageHeader
        title={t('versions.title')}
        subtitle={name}
        action={
          <LinkButton to={`/admin/workflows/${id}`} icon={ArrowLeft} variant="secondary">
            {t('versions.backToEdit')}
          </LinkButton>
        }
      />
      <DataTable
        label={t('versions.title')}
        columns={columns}
        rows={versions.data}
        rowKey={(v) => String(v.version)}
        isLoading={versions.isLoading}
        error={versions.error}
        empty={t('versions.empty')}
        rowTestId="version-row"
      />
      {pair ? (
        <Card className="p-5 sm:p-6">
          <h2 className="mb-4 text-lg font-semibold text-slate-900">{t('versions.compare')}</h2>
          <div className="mb-4 flex flex-wrap gap-4">
            <label className="flex items-center gap-2 text-sm font-medium text-slate-900">
              {t('versions.from')}
              <Select
                value={pair.from}
                onChange={(e) => setChosen({ ...pair, from: Number(e.target.value) })}
              >
                {options}
              </Select>
            </label>
            <label className="flex items-center gap-2 text-sm font-medium text-slate-900">
              {t('versions.to')}
              <Select value={pair.to} onChange={(e) => setChosen({ ...pair, to: Number(e.target.value) })}>
                {options}
              </Select>
            </label>
          </div>
          <VersionDiff workflowId={id} from={pair.from} to={pair.to} />
        </Card>
      ) : null}
      <ConfirmDialog
        open={restoring !== null}
        onOpenChange={(open) => (open ? undefined : setRestoring(null))}
        title={t('versions.restoreTitle', { version: restoring ?? 0 })}
        description={t('versions.restoreExplained')}
        confirmLabel={t('versions.restore')}
        confirmVariant="primary"
        onConfirm={confirmRestore}
        pending={restore.isPending}
      />
    </div>
  );
}
