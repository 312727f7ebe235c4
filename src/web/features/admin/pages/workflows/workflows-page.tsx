import {
  Archive,
  ArchiveRestore,
  FlaskConical,
  MessageSquareText,
  Pencil,
  Plus,
  Power,
  Trash2,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Badge } from '#web/components/ui/badge';
import { LinkButton } from '#web/components/ui/link-button';
import { toast } from '#web/components/ui/toast';
import type { TAdminWorkflow } from '#shared/contract/admin';
import { CATEGORIES } from '#shared/contract/categories';
import { pickLanguage } from '#shared/contract/common';
import { useDeleteWorkflow } from '#web/features/admin/api/delete-workflow';
import { useAdminWorkflows } from '#web/features/admin/api/lists';
import { useUpdateWorkflow } from '#web/features/admin/api/update-workflow';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import type { Column } from '#web/components/ui/data-table';
import { AdminList, type ListFilter } from '#web/features/admin/components/admin-list';
import { RowAction } from '#web/features/admin/components/row-action';
import { ToggleBadge } from '#web/features/admin/components/status-badge';
import { formatNumber } from '#web/lib/format';
import { useListState } from '#web/features/admin/lib/use-list-state';
import { useArchiveToggle } from './use-archive-toggle';
import { WorkflowReviewsDialog } from './workflow-reviews-dialog';
import { errorMessage } from '#web/lib/error-key';

export default function WorkflowsPage() {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.language;
  const list = useListState();
  const category = CATEGORIES.find((c) => c.key === list.filter);
  // The server matches a category label in either language; the English label is stable.
  const [sort, setSort] = useState<'' | 'health'>('');
  const workflows = useAdminWorkflows({
    ...list.params,
    category: category?.name.en,
    sort: sort || undefined,
  });
  const update = useUpdateWorkflow();
  const remove = useDeleteWorkflow();
  const navigate = useNavigate();
  const archive = useArchiveToggle();
  const [deleting, setDeleting] = useState<TAdminWorkflow | null>(null);
  const [reviewsOf, setReviewsOf] = useState<TAdminWorkflow | null>(null);

  const toggle = (w: TAdminWorkflow) =>
    update.mutate(
      { id: w.id, changes: { isActive: !w.isActive } },
      {
        onSuccess: () =>
          toast({
            title: w.isActive ? t('workflows.deactivated') : t('workflows.activated'),
            description: pickLanguage(w.name, lng),
            variant: 'success',
          }),
        onError: (err) =>
          toast({
            title: t('workflows.toggleError'),
            description: errorMessage(t, err),
            variant: 'destructive',
          }),
      },
    );

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: ({ deletedExecutions }) => {
        toast({
          title: t('workflows.deleted'),
          description: t('workflows.deletedRuns', { count: deletedExecutions }),
          variant: 'success',
        });
        setDeleting(null);
      },
      onError: (err) =>
        toast({
          title: t('workflows.deleteError'),
          description: errorMessage(t, err),
          variant: 'destructive',
        }),
    });
  };

  const columns: Array<Column<TAdminWorkflow>> = [
    {
      id: 'name',
      header: t('workflows.columns.name'),
      cell: (w) => (
        <div className="min-w-[12rem]">
          <Link
            to={`/admin/workflows/${w.id}/health`}
            className="font-medium text-slate-900 underline decoration-slate-300 underline-offset-4 hover:decoration-slate-900"
          >
            {pickLanguage(w.name, lng)}
          </Link>
          <p className="text-xs text-slate-700">
            {t(`interaction.${w.interactionType}`)} ·{' '}
            {t('workflows.creditsPerRun', { count: w.creditsPerExecution })}
          </p>
        </div>
      ),
    },
    { id: 'category', header: t('workflows.columns.category'), cell: (w) => pickLanguage(w.category, lng) },
    {
      id: 'executions',
      header: t('workflows.columns.executions'),
      className: 'text-right tabular-nums',
      cell: (w) => formatNumber(w.executionCount),
    },
    {
      id: 'health',
      header: t('workflows.columns.health'),
      className: 'text-right tabular-nums',
      cell: (w) => (
        <div className="space-y-1">
          <p>{w.health?.successRate == null ? '—' : `${w.health.successRate}%`}</p>
          {w.pausedAt ? <Badge tone="warning">{t('health.paused')}</Badge> : null}
        </div>
      ),
    },
    {
      id: 'visibility',
      header: t('workflows.columns.visibility'),
      cell: (w) => (
        <ToggleBadge on={w.isPublic} onLabel={t('visibility.public')} offLabel={t('visibility.private')} />
      ),
    },
    {
      id: 'status',
      header: t('workflows.columns.status'),
      cell: (w) =>
        w.archivedAt !== null ? (
          <Badge tone="warning">{t('state.archived')}</Badge>
        ) : (
          <ToggleBadge on={w.isActive} onLabel={t('state.active')} offLabel={t('state.inactive')} />
        ),
    },
    {
      id: 'actions',
      actions: true,
      header: <span className="sr-only">{t('common.actions')}</span>,
      className: 'text-right',
      cell: (w) => {
        const name = pickLanguage(w.name, lng);
        return (
          <div className="flex justify-end gap-1">
            <RowAction
              label={t('workflows.editNamed', { name })}
              icon={Pencil}
              onClick={() => void navigate(`/admin/workflows/${w.id}`)}
            />
            <RowAction
              label={t('testRun.openNamed', { name })}
              icon={FlaskConical}
              onClick={() => void navigate(`/admin/workflows/${w.id}/test`)}
            />
            <RowAction
              label={t('reviews.openNamed', { name })}
              icon={MessageSquareText}
              onClick={() => setReviewsOf(w)}
            />
            <RowAction
              label={
                w.isActive ? t('workflows.deactivateNamed', { name }) : t('workflows.activateNamed', { name })
              }
              icon={Power}
              tone={w.isActive ? 'neutral' : 'success'}
              onClick={() => toggle(w)}
              disabled={update.isPending && update.variables?.id === w.id}
            />
            <RowAction
              label={
                w.archivedAt === null
                  ? t('archive.archiveNamed', { name })
                  : t('archive.unarchiveNamed', { name })
              }
              icon={w.archivedAt === null ? Archive : ArchiveRestore}
              onClick={() => archive.toggle(w)}
              disabled={archive.pendingId === w.id}
            />
            <RowAction
              label={t('workflows.deleteNamed', { name })}
              icon={Trash2}
              tone="danger"
              onClick={() => setDeleting(w)}
            />
          </div>
        );
      },
    },
  ];

  const filter: ListFilter = {
    label: t('workflows.category'),
    options: CATEGORIES.map((c) => ({ value: c.key, label: pickLanguage(c.name, lng) })),
  };

  return (
    <AdminList
      section="workflows"
      list={list}
      page={workflows}
      filter={filter}
      secondFilter={{
        label: t('workflows.sort'),
        allLabel: t('workflows.sortNewest'),
        options: [{ value: 'health', label: t('workflows.sortHealth') }],
        value: sort,
        onChange: (value) => setSort(value === 'health' ? 'health' : ''),
      }}
      columns={columns}
      action={
        <LinkButton to="/admin/create-workflow" icon={Plus}>
          {t('workflows.create')}
        </LinkButton>
      }
    >
      <WorkflowReviewsDialog
        workflowId={reviewsOf?.id ?? null}
        workflowName={reviewsOf ? pickLanguage(reviewsOf.name, lng) : ''}
        onClose={() => setReviewsOf(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={t('workflows.deleteTitle', { name: deleting ? pickLanguage(deleting.name, lng) : '' })}
        description={t('workflows.deleteWarning')}
        confirmLabel={t('common.delete')}
        onConfirm={confirmDelete}
        pending={remove.isPending}
      />
    </AdminList>
  );
}
