import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ACCOUNT_OFFERS, planBonusCredits } from '#shared/contract/plans';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { planAddress } from '#web/lib/plan-address';
import { cn } from '#web/lib/utils';
import { formatUsd } from './format';

/**
 * The three offers of the account page, read from the plan catalogue the server sells from; each button opens
 * the purchase screen with that very offer chosen.
 */
export function PlanCards() {
  const { t, i18n } = useTranslation('account');
  return (
    <section aria-labelledby="plans-heading">
      <h2 id="plans-heading" className="text-xl font-semibold text-slate-900">
        {t('plans.heading')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('plans.subtitle')}</p>
      <div className="mt-4 grid gap-4 md:grid-cols-3">
        {ACCOUNT_OFFERS.map((card) => {
          const bonus = planBonusCredits(card);
          return (
            <Card
              key={card.id}
              className={cn(
                'relative flex flex-col p-6',
                card.highlighted && 'border-brand-600 ring-1 ring-brand-600',
              )}
            >
              {card.highlighted ? (
                <Badge tone="brand" className="absolute -top-3 left-6">
                  {t('plans.popular')}
                </Badge>
              ) : null}
              <h3 className="text-lg font-semibold text-slate-900">{card.name}</h3>
              <p className="mt-2 text-3xl font-bold text-slate-900">
                {formatUsd(card.priceUsd, i18n.language)}
              </p>
              <ul className="mt-4 flex-1 space-y-2 text-sm text-slate-800">
                <li className="flex items-center gap-2">
                  <Check className="size-4 text-green-700" aria-hidden="true" />
                  {t('plans.credits', { count: card.credits })}
                </li>
                <li className="flex items-center gap-2">
                  <Check
                    className={cn('size-4', bonus ? 'text-green-700' : 'text-slate-400')}
                    aria-hidden="true"
                  />
                  {bonus ? t('plans.bonus', { count: bonus }) : t('plans.noBonus')}
                </li>
              </ul>
              <Button asChild variant={card.highlighted ? 'primary' : 'secondary'} className="mt-6 w-full">
                <Link to={planAddress(card)} data-testid={`choose-offer-${card.id}`}>
                  {t('plans.choose', { plan: card.name })}
                </Link>
              </Button>
            </Card>
          );
        })}
      </div>
    </section>
  );
}
