import { Archive, ArchiveRestore, FlaskConical, History } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { pickLanguage } from '#shared/contract/common';
import type { TAdminWorkflowDetail } from '#shared/contract/admin';
import { useArchiveToggle } from './use-archive-toggle';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { LinkButton } from '#web/components/ui/link-button';
import { toast } from '#web/components/ui/toast';
import { useAdminWorkflow } from '#web/features/admin/api/get-workflow';
import { useUpdateWorkflow } from '#web/features/admin/api/update-workflow';
import { Loaded } from '#web/features/admin/components/loaded';
import { PageHeader } from '#web/features/admin/components/page-header';
import { SecretPanel } from '#web/features/admin/components/secret-panel';
import { WorkflowForm } from '#web/features/admin/components/workflow-form';
import { workflowToDraft } from '#web/features/admin/lib/workflow-form';
import { errorMessage } from '#web/lib/error-key';

/**
 * The edit page: the create page's form (one component) from the stored workflow (workflowToDraft), its
 * signing secret, and the way to its history, a test run and archiving.
 */
export default function EditWorkflowPage() {
  const { id = '' } = useParams();
  const detail = useAdminWorkflow(id);
  return (
    <Loaded query={detail}>
      {(workflow) => (workflow ? <EditWorkflow key={workflow.id} workflow={workflow} /> : null)}
    </Loaded>
  );
}

function EditWorkflow({ workflow }: { workflow: TAdminWorkflowDetail }) {
  const { t, i18n } = useTranslation('admin');
  const update = useUpdateWorkflow();
  const archive = useArchiveToggle();
  const name = pickLanguage(workflow.name, i18n.language);
  const archived = workflow.archivedAt !== null;
  return (
    <div className="space-y-6">
      <PageHeader
        title={t('edit.title')}
        subtitle={t('edit.subtitle', { name, version: workflow.version })}
        action={
          <div className="flex flex-wrap gap-2">
            <LinkButton to={`/admin/workflows/${workflow.id}/test`} icon={FlaskConical} variant="secondary">
              {t('testRun.open')}
            </LinkButton>
            <LinkButton to={`/admin/workflows/${workflow.id}/versions`} icon={History} variant="secondary">
              {t('versions.open')}
            </LinkButton>
            <Button
              variant="secondary"
              onClick={() => archive.toggle(workflow)}
              disabled={archive.pendingId === workflow.id}
            >
              {archived ? (
                <ArchiveRestore className="size-4" aria-hidden="true" />
              ) : (
                <Archive className="size-4" aria-hidden="true" />
              )}
              {archived ? t('archive.unarchive') : t('archive.archive')}
            </Button>
          </div>
        }
      />
      {archived ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-800">
          <Badge tone="warning">{t('state.archived')}</Badge>
          {t('archive.explained')}
        </p>
      ) : null}
      <WorkflowForm
        // Keyed by version: after a save or a restore the form starts again from what is stored.
        key={workflow.version}
        initial={workflowToDraft(workflow)}
        currentOwner={workflow.owner}
        submitLabel={t('common.save')}
        pendingLabel={t('common.saving')}
        pending={update.isPending}
        onSubmit={(changes) =>
          update.mutate(
            { id: workflow.id, changes },
            {
              onSuccess: () => toast({ title: t('edit.saved'), variant: 'success' }),
              onError: (err) =>
                toast({
                  title: t('edit.saveError'),
                  description: errorMessage(t, err),
                  variant: 'destructive',
                }),
            },
          )
        }
      />
      <SecretPanel workflowId={workflow.id} />
    </div>
  );
}
