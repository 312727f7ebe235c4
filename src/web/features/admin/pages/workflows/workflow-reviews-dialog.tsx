import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WorkflowReviewsDialogProps } from '#web/components/reviews/reviews-dialog';
import { StarRow } from '#web/components/reviews/stars';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { Pagination } from '#web/components/ui/pagination';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/toast';
import { errorMessage } from '#web/lib/error-key';
import { formatDateTime } from '#web/lib/format';
import { useAdminWorkflowReviews, useModerateReview } from '#web/features/admin/api/workflow-reviews';

const PAGE_SIZE = 10;

/** Every review of one workflow, hidden ones too, each with its hide or show action (audited). */
export function WorkflowReviewsDialog({ workflowId, workflowName, onClose }: WorkflowReviewsDialogProps) {
  const { t } = useTranslation('admin');
  const [page, setPage] = useState(0);
  const reviews = useAdminWorkflowReviews(workflowId, { limit: PAGE_SIZE, offset: page * PAGE_SIZE });
  const moderate = useModerateReview();

  const toggle = (id: string, hidden: boolean) =>
    moderate.mutate(
      { id, hidden },
      {
        onSuccess: () =>
          toast({ title: hidden ? t('reviews.hiddenToast') : t('reviews.shownToast'), variant: 'success' }),
        onError: (err) =>
          toast({
            title: t('reviews.moderateError'),
            description: errorMessage(t, err),
            variant: 'destructive',
          }),
      },
    );

  return (
    <Dialog
      open={workflowId !== null}
      onOpenChange={(open) => {
        if (!open) {
          setPage(0);
          onClose();
        }
      }}
      title={t('reviews.title', { name: workflowName })}
      description={t('reviews.subtitle')}
      closeLabel={t('common.close')}
      className="max-w-2xl"
    >
      {reviews.isPending ? (
        <Spinner label={t('reviews.loading')} className="min-h-32" />
      ) : reviews.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-sm text-red-800">
          {errorMessage(t, reviews.error)}
        </p>
      ) : reviews.data.items.length === 0 ? (
        <p className="text-sm text-slate-700">{t('reviews.empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="admin-reviews">
          {reviews.data.items.map((r) => (
            <li
              key={r.id}
              className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start"
              data-testid="admin-review"
            >
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <StarRow value={r.rating} />
                  <span className="sr-only">{t('reviews.rated', { count: r.rating })}</span>
                  <span className="break-all text-sm font-medium text-slate-900">
                    {r.author?.email ?? t('reviews.deletedAuthor')}
                  </span>
                  <span className="text-xs text-slate-700">{formatDateTime(r.createdAt)}</span>
                  {r.hidden ? <Badge tone="warning">{t('reviews.hiddenBadge')}</Badge> : null}
                </div>
                {r.comment ? (
                  <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-800">{r.comment}</p>
                ) : null}
              </div>
              <Button
                variant="secondary"
                size="sm"
                className="self-start"
                onClick={() => toggle(r.id, !r.hidden)}
                disabled={moderate.isPending && moderate.variables?.id === r.id}
                aria-label={
                  r.hidden
                    ? t('reviews.showNamed', { author: r.author?.email ?? t('reviews.deletedAuthor') })
                    : t('reviews.hideNamed', { author: r.author?.email ?? t('reviews.deletedAuthor') })
                }
              >
                {r.hidden ? (
                  <Eye className="size-4" aria-hidden="true" />
                ) : (
                  <EyeOff className="size-4" aria-hidden="true" />
                )}
                {r.hidden ? t('reviews.show') : t('reviews.hide')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageSize={PAGE_SIZE} total={reviews.data?.total} onPageChange={setPage} />
    </Dialog>
  );
}
