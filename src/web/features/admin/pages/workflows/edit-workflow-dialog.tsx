import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '#web/components/ui/dialog';
import { toast } from '#web/components/ui/toast';
import {
  ZAdminWorkflowUpdate,
  type TAdminWorkflowDetail,
  type TAdminWorkflowUpdate,
} from '#shared/contract/admin';
import { useAdminWorkflow } from '#web/features/admin/api/get-workflow';
import { useUpdateWorkflow } from '#web/features/admin/api/update-workflow';
import { CategorySelect } from '#web/features/admin/components/category-select';
import { FormError } from '#web/features/admin/components/field-error';
import { Loaded } from '#web/features/admin/components/loaded';
import { SaveActions } from '#web/features/admin/components/save-actions';
import { SecretPanel } from '#web/features/admin/components/secret-panel';
import { WebhookUrlField } from '#web/features/admin/components/webhook-url-field';
import { WorkflowIdentityFields } from '#web/features/admin/components/workflow-identity-fields';
import {
  categoryKeyOf,
  categoryOf,
  descriptionOf,
  emptyBilingual,
  issuesToErrors,
  trimmed,
  type DraftErrors,
  type WorkflowDraft,
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
      <Loaded query={detail} errorClassName="text-sm">
        {(workflow) =>
          // Keyed so a different workflow starts from its own values.
          workflow ? <EditForm key={workflow.id} workflow={workflow} onDone={onClose} /> : null
        }
      </Loaded>
    </Dialog>
  );
}

/** The part of a workflow the dialog edits; the rest is left as it is. */
type EditDraft = Pick<
  WorkflowDraft,
  'userId' | 'name' | 'description' | 'categoryKey' | 'webhookUrl' | 'isPublic'
>;

function EditForm({ workflow, onDone }: { workflow: TAdminWorkflowDetail; onDone(): void }) {
  const { t } = useTranslation('admin');
  const update = useUpdateWorkflow();
  const [draft, setDraft] = useState<EditDraft>(() => ({
    userId: workflow.userId ?? '',
    name: workflow.name,
    description: workflow.description ?? emptyBilingual(),
    categoryKey: categoryKeyOf(workflow.category),
    webhookUrl: workflow.webhookUrl,
    isPublic: workflow.isPublic,
  }));
  const [errors, setErrors] = useState<DraftErrors>({ questions: {} });
  const set = <K extends keyof EditDraft>(key: K, value: EditDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const changes: TAdminWorkflowUpdate = {
      userId: draft.userId,
      name: trimmed(draft.name),
      description: descriptionOf(draft.description),
      category: categoryOf(draft.categoryKey),
      webhookUrl: draft.webhookUrl.trim(),
      isPublic: draft.isPublic,
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
        <WorkflowIdentityFields
          idPrefix="edit"
          values={draft}
          onChange={set}
          errors={errors}
          currentOwner={workflow.owner}
        />
        <CategorySelect
          id="edit-category"
          value={draft.categoryKey}
          onChange={(v) => set('categoryKey', v)}
          error={errors.categoryKey}
        />
        <WebhookUrlField
          id="edit-webhook"
          value={draft.webhookUrl}
          onChange={(v) => set('webhookUrl', v)}
          error={errors.webhookUrl}
        />
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            className="size-4 accent-brand-600"
            checked={draft.isPublic}
            onChange={(e) => set('isPublic', e.target.checked)}
          />
          {t('form.public')}
        </label>
        <FormError message={errors.form} />
        <SaveActions label={t('common.save')} pending={update.isPending} onCancel={onDone} />
      </form>
      <SecretPanel workflowId={workflow.id} />
    </div>
  );
}
