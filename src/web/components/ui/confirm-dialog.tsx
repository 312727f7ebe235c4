import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button';
import { Dialog, DialogActions } from './dialog';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  pending?: boolean;
  /** The safe choice's words ("Keep the plan", say); "Cancel" by default. */
  cancelLabel?: string;
  /** The confirm button's look: destructive by default, primary for a harmless action. */
  confirmVariant?: 'destructive' | 'primary';
}

/**
 * Asks before a destructive action. The safe choice comes first, so it is the one the dialog focuses when
 * it opens and the one Enter presses by accident.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  onConfirm,
  pending,
  cancelLabel,
  confirmVariant = 'destructive',
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      closeLabel={t('close')}
    >
      <DialogActions cancelLabel={cancelLabel ?? t('cancel')} onCancel={() => onOpenChange(false)}>
        <Button variant={confirmVariant} onClick={onConfirm} disabled={pending}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
