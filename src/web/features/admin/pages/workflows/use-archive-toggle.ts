import { useTranslation } from 'react-i18next';
import type { TAdminWorkflow } from '#shared/contract/admin';
import { pickLanguage } from '#shared/contract/common';
import { toast } from '#web/components/ui/toast';
import { useArchiveWorkflow } from '#web/features/admin/api/workflow-lifecycle';
import { errorMessage } from '#web/lib/error-key';

/** Archives the workflow or brings it back, with its toast. */
export function useArchiveToggle() {
  const { t, i18n } = useTranslation('admin');
  const archive = useArchiveWorkflow();
  const toggle = (w: Pick<TAdminWorkflow, 'id' | 'name' | 'archivedAt'>) =>
    archive.mutate(
      { id: w.id, archived: w.archivedAt === null },
      {
        onSuccess: () =>
          toast({
            title: w.archivedAt === null ? t('archive.archived') : t('archive.unarchived'),
            description: pickLanguage(w.name, i18n.language),
            variant: 'success',
          }),
        onError: (err) =>
          toast({ title: t('archive.error'), description: errorMessage(t, err), variant: 'destructive' }),
      },
    );
  return { toggle, pendingId: archive.isPending ? archive.variables?.id : undefined };
}
