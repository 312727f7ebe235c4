import { Check, CircleCheck } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TPlanView } from '#shared/contract/credits';
import { formatUsd } from '#shared/contract/plans';
import { Badge } from '#web/components/ui/badge';
import { cn } from '#web/lib/utils';

/**
 * A selectable plan card: a native radio (so arrow keys move between cards) whose accessible name is the plan
 * name and price, with the rest of the card as its description.
 */
export function PlanOption({
  plan,
  group,
  selected,
  onSelect,
}: {
  plan: TPlanView;
  group: string;
  selected: boolean;
  onSelect(): void;
}) {
  const { t, i18n } = useTranslation('billing');
  const id = useId();
  const monthly = plan.type === 'monthly';
  const price = formatUsd(plan.priceUsd, i18n.language);
  return (
    <label
      htmlFor={`${id}-input`}
      data-testid={`plan-${plan.type}-${plan.id}`}
      className={cn(
        'relative flex cursor-pointer flex-col rounded-xl border bg-white p-5 shadow-sm transition',
        'has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-brand-600',
        selected
          ? 'border-brand-600 ring-2 ring-brand-600'
          : plan.highlighted
            ? 'border-brand-600/40 hover:border-brand-600'
            : 'border-slate-200 hover:border-slate-400',
      )}
    >
      <input
        id={`${id}-input`}
        type="radio"
        name={group}
        value={plan.id}
        checked={selected}
        onChange={onSelect}
        className="sr-only"
        aria-labelledby={`${id}-name ${id}-price`}
        aria-describedby={`${id}-details`}
      />
      {plan.highlighted ? (
        <Badge tone="brand" className="absolute -top-3 left-5 shadow-sm">
          {t(plan.type === 'offer' ? 'card.popular' : 'card.highlighted')}
        </Badge>
      ) : null}
      <div className="flex items-start justify-between gap-2">
        <span id={`${id}-name`} className="text-lg font-semibold text-slate-900">
          {plan.name}
        </span>
        {selected ? (
          <span className="inline-flex items-center gap-1 text-sm font-medium text-brand-700">
            <CircleCheck className="size-5" aria-hidden="true" />
            <span className="sr-only sm:not-sr-only">{t('card.selected')}</span>
          </span>
        ) : (
          <span aria-hidden="true" className="size-5 rounded-full border-2 border-slate-300" />
        )}
      </div>
      <p className="mt-2">
        <span id={`${id}-price`} className="text-3xl font-bold text-slate-900">
          {price}
        </span>
        {monthly ? <span className="text-sm text-slate-700">{t('card.perMonth')}</span> : null}
      </p>
      <div id={`${id}-details`} className="mt-1 flex flex-1 flex-col">
        <p className="font-medium text-slate-900">{t('card.credits', { count: plan.credits })}</p>
        <p className="text-xs text-slate-700">
          {t('card.perCredit', {
            price: formatUsd(Math.round((plan.priceUsd / plan.credits) * 100) / 100, i18n.language),
          })}
        </p>
        <div className="mt-3 min-h-6">
          {!monthly && plan.discountPercent > 0 ? (
            <Badge tone="success">{t('card.save', { percent: plan.discountPercent })}</Badge>
          ) : null}
          {plan.bonusCredits > 0 ? (
            <Badge tone="success" className="whitespace-normal">
              {monthly
                ? t('card.bonus', { count: plan.bonusCredits, percent: plan.bonusPercent })
                : t('card.bonusOnce', { count: plan.bonusCredits })}
            </Badge>
          ) : null}
        </div>
        <ul className="mt-4 space-y-1.5 text-sm text-slate-800">
          {plan.benefits.map((b) => (
            <li key={b} className="flex items-start gap-2">
              <Check className="mt-0.5 size-4 shrink-0 text-green-700" aria-hidden="true" />
              {t(`benefits.${b}`)}
            </li>
          ))}
        </ul>
      </div>
    </label>
  );
}
