import { EyeOff, Pencil, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  REVIEW_COMMENT_MAX,
  REVIEWS_PAGE_DEFAULT,
  type TMyReview,
  type TReview,
} from '#shared/contract/reviews';
import { Button } from '#web/components/ui/button';
import { FormError } from '#web/components/ui/form-field';
import { InlineConfirmButtons } from '#web/components/ui/inline-confirm';
import { Label, Textarea } from '#web/components/ui/input';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/toast';
import { errorMessage } from '#web/lib/error-key';
import { formatDate } from '#web/lib/format';
import { useDeleteReview, useSaveReview, useWorkflowReviews } from '#web/lib/reviews';
import { useConfirmedAction } from '#web/lib/use-confirmed-action';
import { RatingSummary, StarInput, StarRow } from './stars';

/**
 * A workflow's reviews and the reader's own: the form to write or change it (for people who completed a run),
 * and the others' reviews (the server leaves the reader's out, so it is listed once), newest first, a page at
 * a time. Comments are shown as plain text.
 */
export function ReviewsPanel({ workflowId, headingLevel = 2 }: { workflowId: string; headingLevel?: 2 | 3 }) {
  const { t } = useTranslation('reviews');
  const [limit, setLimit] = useState(REVIEWS_PAGE_DEFAULT);
  const reviews = useWorkflowReviews(workflowId, limit);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  if (reviews.isPending) return <Spinner label={t('loading')} className="min-h-32" />;
  if (!reviews.data) {
    return (
      <p role="alert" className="rounded-lg bg-red-50 p-4 text-sm text-red-800">
        {errorMessage(t, reviews.error)}
      </p>
    );
  }
  const { rating, mine, canReview, total } = reviews.data;
  const list = reviews.data.reviews;

  return (
    <div className="space-y-6" data-testid="reviews-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Heading className="text-base font-semibold text-slate-900">{t('title')}</Heading>
        <RatingSummary rating={rating} />
      </div>

      <MyReview workflowId={workflowId} mine={mine} canReview={canReview} />

      {/* The server lists the others' reviews; the reader's own is shown once, above. */}
      {list.length === 0 ? (
        <p className="text-sm text-slate-700">{mine ? t('noOthers') : t('empty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label={t('listLabel')} data-testid="reviews-list">
          {list.map((r) => (
            <ReviewItem key={r.id} review={r} />
          ))}
        </ul>
      )}
      {list.length < total ? (
        <Button
          variant="secondary"
          className="w-full"
          onClick={() => setLimit((l) => l + REVIEWS_PAGE_DEFAULT)}
          disabled={reviews.isFetching}
        >
          {t('showMore', { count: total - list.length })}
        </Button>
      ) : null}
    </div>
  );
}

function ReviewItem({ review }: { review: TReview }) {
  const { t } = useTranslation('reviews');
  return (
    <li className="py-3" data-testid="review-item">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <StarRow value={review.rating} />
        <span className="sr-only">{t('ratedOutOf', { count: review.rating })}</span>
        <span className="text-sm font-medium text-slate-900">{review.authorName ?? t('anonymous')}</span>
        <span className="text-xs text-slate-700">{formatDate(review.createdAt, { time: false })}</span>
      </div>
      {review.comment ? (
        <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-800">{review.comment}</p>
      ) : null}
    </li>
  );
}

function MyReview({
  workflowId,
  mine,
  canReview,
}: {
  workflowId: string;
  mine: TMyReview | null;
  canReview: boolean;
}) {
  const { t } = useTranslation('reviews');
  const [editing, setEditing] = useState(false);
  const remove = useDeleteReview(workflowId);
  const deletion = useConfirmedAction(remove, t, { done: t('deleted'), failed: t('deleteError') });

  if (!mine && !canReview) {
    return (
      <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700" data-testid="review-needs-run">
        {t('needsRun')}
      </p>
    );
  }
  if (!mine || editing) {
    return (
      <ReviewForm
        workflowId={workflowId}
        mine={mine}
        onDone={() => setEditing(false)}
        onCancel={mine ? () => setEditing(false) : undefined}
      />
    );
  }
  return (
    <section
      className="rounded-lg border border-slate-200 bg-slate-50 p-4"
      aria-label={t('yours')}
      data-testid="my-review"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-semibold text-slate-900">{t('yours')}</p>
        <span className="inline-flex items-center gap-2">
          <StarRow value={mine.rating} />
          <span className="sr-only">{t('ratedOutOf', { count: mine.rating })}</span>
        </span>
      </div>
      {mine.comment ? (
        <p className="mt-2 whitespace-pre-line break-words text-sm text-slate-800">{mine.comment}</p>
      ) : null}
      {mine.hidden ? (
        <p className="mt-2 flex items-start gap-1.5 text-sm text-amber-900">
          <EyeOff className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {t('hiddenNote')}
        </p>
      ) : null}
      {deletion.confirming ? (
        <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-center" role="group">
          <p className="text-sm text-slate-800 sm:mr-auto">{t('deleteConfirm')}</p>
          <InlineConfirmButtons action={deletion} cancelLabel={t('cancel')} confirmLabel={t('deleteYes')} />
        </div>
      ) : (
        <div className="mt-3 flex gap-2">
          <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
            <Pencil className="size-4" aria-hidden="true" />
            {t('edit')}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => deletion.setConfirming(true)}>
            <Trash2 className="size-4" aria-hidden="true" />
            {t('delete')}
          </Button>
        </div>
      )}
    </section>
  );
}

function ReviewForm({
  workflowId,
  mine,
  onDone,
  onCancel,
}: {
  workflowId: string;
  mine: TMyReview | null;
  onDone(): void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('reviews');
  const id = useId();
  const [rating, setRating] = useState(mine?.rating ?? 0);
  const [comment, setComment] = useState(mine?.comment ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveReview(workflowId);
  const counterId = `${id}-count`;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (rating < 1) return setProblem(t('pickStars'));
    setProblem(null);
    save.mutate(
      { rating, comment: comment.trim() || null },
      {
        onSuccess: () => {
          toast({ title: mine ? t('updated') : t('saved'), variant: 'success' });
          onDone();
        },
        onError: (err) =>
          setProblem(errorMessage(t, err, { FORBIDDEN: 'errors:FORBIDDEN.reviewNeedsCompletedRun' })),
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      className="space-y-3 rounded-lg border border-slate-200 p-4"
      aria-label={mine ? t('editTitle') : t('formTitle')}
      data-testid="review-form"
    >
      <p className="text-sm font-semibold text-slate-900">{mine ? t('editTitle') : t('formTitle')}</p>
      <StarInput value={rating} onChange={setRating} legend={t('ratingLabel')} name={`${id}-rating`} />
      <div>
        <Label htmlFor={`${id}-comment`}>{t('commentLabel')}</Label>
        <Textarea
          id={`${id}-comment`}
          rows={3}
          maxLength={REVIEW_COMMENT_MAX}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          placeholder={t('commentPlaceholder')}
          aria-describedby={counterId}
        />
        <p id={counterId} className="mt-1 text-right text-xs text-slate-700">
          {t('commentCount', { count: comment.length, max: REVIEW_COMMENT_MAX })}
        </p>
      </div>
      <FormError message={problem} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            {t('cancel')}
          </Button>
        ) : null}
        <Button type="submit" disabled={save.isPending}>
          {mine ? t('update') : t('submit')}
        </Button>
      </div>
    </form>
  );
}
