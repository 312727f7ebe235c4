import { Star } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TRatingSummary } from '#shared/contract/reviews';
import { formatNumber } from '#web/lib/format';
import { cn } from '#web/lib/utils';

/** Five stars, filled up to `value` (halves round to the nearer star); decoration only. */
export function StarRow({ value, className }: { value: number; className?: string }) {
  const filled = Math.round(value);
  return (
    <span className={cn('inline-flex', className)} aria-hidden="true">
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          className={cn('size-4', n <= filled ? 'fill-amber-500 text-amber-600' : 'text-slate-400')}
        />
      ))}
    </span>
  );
}

/** A workflow's rating as a card shows it: stars, the average and the count, read out as one sentence. */
export function RatingSummary({ rating, className }: { rating: TRatingSummary; className?: string }) {
  const { t } = useTranslation('reviews');
  if (rating.average === null) {
    return (
      <span className={cn('text-sm text-slate-700', className)} data-testid="rating-summary">
        {t('noReviews')}
      </span>
    );
  }
  const average = formatNumber(rating.average);
  return (
    <span
      className={cn('inline-flex items-center gap-1.5 text-sm text-slate-800', className)}
      data-testid="rating-summary"
    >
      <StarRow value={rating.average} />
      <span aria-hidden="true" className="font-medium tabular-nums">
        {average}
      </span>
      <span aria-hidden="true" className="text-slate-700">
        ({formatNumber(rating.count)})
      </span>
      <span className="sr-only">{t('summary', { average, count: rating.count })}</span>
    </span>
  );
}

/** The 1-5 choice of a review form: five radio buttons drawn as stars, in a labelled group. */
export function StarInput({
  value,
  onChange,
  legend,
  name,
}: {
  value: number;
  onChange(value: number): void;
  legend: string;
  name: string;
}) {
  const { t } = useTranslation('reviews');
  return (
    <fieldset>
      <legend className="mb-1 text-sm font-medium text-slate-800">{legend}</legend>
      <div className="flex gap-1">
        {[1, 2, 3, 4, 5].map((n) => (
          <label
            key={n}
            className="cursor-pointer rounded-md p-1 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600"
          >
            <input
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              className="sr-only"
            />
            <Star
              aria-hidden="true"
              className={cn('size-7', n <= value ? 'fill-amber-500 text-amber-600' : 'text-slate-500')}
            />
            <span className="sr-only">{t('stars', { count: n })}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
