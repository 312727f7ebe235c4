import { CalendarClock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { useCancelSubscription } from './api/cancel-subscription';
import { useSubscription } from './api/get-subscription';
import { formatDate, formatUsd } from './format';
import { useConfirmedAction } from '#web/lib/use-confirmed-action';

/** The active monthly plan, with a cancel button behind a confirmation; nothing when there is none. */
export function SubscriptionPanel() {
  const { t, i18n } = useTranslation('account');
  const { data: subscription } = useSubscription();
  const cancel = useCancelSubscription();
  const cancellation = useConfirmedAction(cancel, t, {
    done: t('subscription.cancelled'),
    failed: t('subscription.cancelError'),
  });
  if (!subscription) return null;

  return (
    <Card
      className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between"
      data-testid="subscription"
    >
      <div className="flex items-start gap-3">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-100 text-brand-700">
          <CalendarClock className="size-5" aria-hidden="true" />
        </div>
        <div>
          <h2 className="font-semibold text-slate-900">{t('subscription.heading')}</h2>
          <p className="text-sm text-slate-800">
            {t('subscription.summary', {
              plan: subscription.planName,
              credits: subscription.creditsPerMonth,
              bonus: subscription.bonusCredits,
              price: formatUsd(subscription.priceUsd, i18n.language),
            })}
          </p>
          <p className="text-sm text-slate-700">
            {t('subscription.nextRenewal', {
              date:
                formatDate(subscription.nextRenewalDate, i18n.language, false) ??
                t('history.dateUnavailable'),
            })}
          </p>
          {subscription.provider === 'demo' ? (
            <p className="mt-1 text-xs text-slate-700">{t('subscription.demo')}</p>
          ) : null}
        </div>
      </div>
      <Button variant="secondary" onClick={() => cancellation.setConfirming(true)} className="shrink-0">
        {t('subscription.cancel')}
      </Button>
      <ConfirmDialog
        open={cancellation.confirming}
        onOpenChange={cancellation.setConfirming}
        title={t('subscription.confirmTitle', { plan: subscription.planName })}
        description={t('subscription.confirmBody')}
        cancelLabel={t('subscription.keep')}
        confirmLabel={cancel.isPending ? t('subscription.cancelling') : t('subscription.confirm')}
        onConfirm={cancellation.run}
        pending={cancel.isPending}
      />
    </Card>
  );
}
