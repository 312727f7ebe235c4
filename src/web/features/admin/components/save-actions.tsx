import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { DialogActions } from '#web/components/ui/dialog';

/** An admin dialog form's buttons: cancel, and submit (`label`, "Saving…" and disabled while it is sent). */
export function SaveActions({
  label,
  pending,
  onCancel,
}: {
  label: string;
  pending: boolean;
  onCancel(): void;
}) {
  const { t } = useTranslation('admin');
  return (
    <DialogActions cancelLabel={t('common.cancel')} onCancel={onCancel}>
      <Button type="submit" disabled={pending}>
        {pending ? t('common.saving') : label}
      </Button>
    </DialogActions>
  );
}
