import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Dialog, DialogActions } from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/toast';
import {
  ZAdminWorkflowUpdate,
  type TAdminWorkflowDetail,
  type TAdminWorkflowUpdate,
} from '#shared/contract/admin';
import { useAdminWorkflow } from '#web/features/admin/api/get-workflow';
import { useUpdateWorkflow } from '#web/features/admin/api/update-workflow';
import { BilingualField } from '#web/features/admin/components/bilingual-field';
import { CategorySelect } from '#web/features/admin/components/category-select';
import { OwnerSelect } from '#web/features/admin/components/owner-select';
import { SecretPanel } from '#web/features/admin/components/secret-panel';
import { WebhookUrlField } from '#web/features/admin/components/webhook-url-field';
import {
  categoryKeyOf,
  categoryOf,
  descriptionOf,
  emptyBilingual,
  issuesToErrors,
  trimmed,
  type DraftErrors,
} from '#web/features/admin/lib/workflow-form';
import { errorMessage } from '#web/lib/error-key';

interface EditWorkflowDialogProps {
  workflowId: string | null;
  onClose(): void;
}

/** The workflow edit modal (owner, name, description, category, webhook URL, public) plus the secret. */
export function EditWorkflowDialog({ workflowId, onClose }: EditWorkflowDialogProps) {
  const { t } = useTranslation('admin');
  const detail = useAdminWorkflow(workflowId);
  return (
    <Dialog
      open={workflowId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('edit.title')}
      closeLabel={t('common.close')}
      className="max-w-2xl"
    >
      {detail.isLoading ? (
        <Spinner label={t('common.loading')} />
      ) : detail.error ? (
        <p role="alert" className="text-sm text-red-800">
          {t('common.loadError', { message: errorMessage(t, detail.error) })}
        </p>
      ) : detail.data ? (
        // Keyed so a different workflow starts from its own values.
        <EditForm key={detail.data.id} workflow={detail.data} onDone={onClose} />
      ) : null}
    </Dialog>
  );
}

function EditForm({ workflow, onDone }: { workflow: TAdminWorkflowDetail; onDone(): void }) {
  const { t } = useTranslation('admin');
  const update = useUpdateWorkflow();
  const [userId, setUserId] = useState(workflow.userId ?? '');
  const [name, setName] = useState(workflow.name);
  const [description, setDescription] = useState(workflow.description ?? emptyBilingual());
  const [categoryKey, setCategoryKey] = useState(categoryKeyOf(workflow.category));
  const [webhookUrl, setWebhookUrl] = useState(workflow.webhookUrl);
  const [isPublic, setIsPublic] = useState(workflow.isPublic);
  const [errors, setErrors] = useState<DraftErrors>({ questions: {} });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const changes: TAdminWorkflowUpdate = {
      userId,
      name: trimmed(name),
      description: descriptionOf(description),
      category: categoryOf(categoryKey),
      webhookUrl: webhookUrl.trim(),
      isPublic,
    };
    const parsed = ZAdminWorkflowUpdate.safeParse(changes);
    const found = parsed.success ? { questions: {} } : issuesToErrors(parsed.error.issues, [], t);
    setErrors(found);
    if (!parsed.success) return;
    update.mutate(
      { id: workflow.id, changes: parsed.data },
      {
        onSuccess: () => {
          toast({ title: t('edit.saved'), variant: 'success' });
          onDone();
        },
        onError: (err) =>
          toast({ title: t('edit.saveError'), description: errorMessage(t, err), variant: 'destructive' }),
      },
    );
  };

  return (
    <div className="space-y-6">
      <form onSubmit={submit} noValidate className="space-y-5">
        <OwnerSelect
          id="edit-owner"
          value={userId}
          onChange={setUserId}
          error={errors.userId}
          current={workflow.owner}
        />
        <BilingualField
          id="edit-name"
          label={t('form.name')}
          value={name}
          onChange={setName}
          required
          error={errors.name}
        />
        <BilingualField
          id="edit-description"
          label={t('form.description')}
          value={description}
          onChange={setDescription}
          multiline
          error={errors.description}
        />
        <CategorySelect
          id="edit-category"
          value={categoryKey}
          onChange={setCategoryKey}
          error={errors.categoryKey}
        />
        <WebhookUrlField
          id="edit-webhook"
          value={webhookUrl}
          onChange={setWebhookUrl}
          error={errors.webhookUrl}
        />
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            className="size-4 accent-brand-600"
            checked={isPublic}
            onChange={(e) => setIsPublic(e.target.checked)}
          />
          {t('form.public')}
        </label>
        {errors.form ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {errors.form}
          </p>
        ) : null}
        <DialogActions cancelLabel={t('common.cancel')} onCancel={onDone}>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? t('common.saving') : t('common.save')}
          </Button>
        </DialogActions>
      </form>
      <SecretPanel workflowId={workflow.id} />
    </div>
  );
}
