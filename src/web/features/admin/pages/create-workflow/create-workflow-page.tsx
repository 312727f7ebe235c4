import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pickLanguage } from '#shared/contract/pick-language';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { toast } from '#web/components/ui/toast';
import { useCreateWorkflow } from '#web/features/admin/api/create-workflow';
import { useAdminConfig } from '#web/features/admin/api/get-config';
import { PageHeader } from '#web/features/admin/components/page-header';
import { SecretPanel } from '#web/features/admin/components/secret-panel';
import { WorkflowForm } from '#web/features/admin/components/workflow-form';
import { emptyDraft } from '#web/features/admin/lib/workflow-form';
import { errorMessage } from '#web/lib/error-key';

/**
 * The admin's create page: the workflow form (shared with the edit page) from blank; once saved, the workflow's
 * signing details, so a builder can set up the service before leaving the page.
 */
export default function CreateWorkflowPage() {
  const { t, i18n } = useTranslation('admin');
  const navigate = useNavigate();
  const create = useCreateWorkflow();
  const config = useAdminConfig();
  const configuredDefault = config.data?.find((e) => e.key === 'default_credits_per_execution')?.value;
  const defaultCredits = typeof configuredDefault === 'number' ? String(configuredDefault) : '1';
  /** The workflow just created: its signing details show before the builder leaves the page. */
  const [created, setCreated] = useState<{ id: string; name: string } | null>(null);

  if (created) {
    return (
      <div>
        <PageHeader
          title={t('create.createdTitle', { name: created.name })}
          subtitle={t('create.createdSubtitle')}
        />
        <Card className="space-y-4 p-5 sm:p-6">
          <SecretPanel workflowId={created.id} />
          <p className="text-sm text-slate-800">
            {t('create.guide')}{' '}
            <code className="rounded bg-slate-100 px-1 py-0.5 text-xs text-slate-900">docs/builders.md</code>
            {' · '}
            <a
              className="font-medium text-brand-700 underline"
              href="/api/docs"
              target="_blank"
              rel="noreferrer"
            >
              {t('create.apiDocs')}
            </a>
          </p>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setCreated(null)}>
              {t('create.another')}
            </Button>
            <Button onClick={() => void navigate('/admin/workflows')}>{t('create.toList')}</Button>
          </div>
        </Card>
      </div>
    );
  }

  return (
    <div>
      <PageHeader title={t('create.title')} subtitle={t('create.subtitle')} />
      <WorkflowForm
        initial={emptyDraft()}
        defaultCredits={defaultCredits}
        submitLabel={t('create.submit')}
        pendingLabel={t('create.submitting')}
        pending={create.isPending}
        onSubmit={(input) =>
          create.mutate(input, {
            onSuccess: (workflow) => {
              toast({ title: t('form.created'), variant: 'success' });
              setCreated({
                id: workflow.id,
                name: pickLanguage(workflow.name, i18n.resolvedLanguage ?? 'en'),
              });
              window.scrollTo({ top: 0 });
            },
            onError: (err) =>
              toast({
                title: t('form.createError'),
                description: errorMessage(t, err),
                variant: 'destructive',
              }),
          })
        }
      />
    </div>
  );
}
