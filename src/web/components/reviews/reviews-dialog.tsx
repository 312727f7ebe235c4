import { useTranslation } from 'react-i18next';
import { Dialog } from '#web/components/ui/dialog';
import { ReviewsPanel } from './reviews-panel';

/** A dialog about one workflow's reviews: open while `workflowId` is set, titled with its name. */
export interface WorkflowReviewsDialogProps {
  workflowId: string | null;
  workflowName: string;
  onClose(): void;
}

/** A workflow's reviews in a dialog (the catalogue's cards open it). */
export function ReviewsDialog({ workflowId, workflowName, onClose }: WorkflowReviewsDialogProps) {
  const { t } = useTranslation('reviews');
  return (
    <Dialog
      open={workflowId !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('dialogTitle', { name: workflowName })}
      closeLabel={t('close')}
      className="max-w-xl"
    >
      {workflowId ? <ReviewsPanel workflowId={workflowId} headingLevel={3} /> : null}
    </Dialog>
  );
}
