import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, FlaskConical, Info, Loader2 } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { TPlanView } from '#shared/contract/credits';
import { formatUsd, type TPlanType } from '#shared/contract/plans';
import { Button } from '#web/components/ui/button';
import { IconLink } from '#web/components/ui/link-button';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/toast';
import { ApiError } from '#web/lib/api-client';
import { cn } from '#web/lib/utils';
import { plannedChoice } from '#web/lib/plan-address';
import { usePlans } from './api/get-plans';
import { newIdempotencyKey, usePurchaseCredits } from './api/purchase-credits';
import { InfoPanels } from './info-panels';
import { PlanOption } from './plan-option';
import { type CompletedPurchase, PurchaseSuccessDialog } from './purchase-success-dialog';
import { errorMessage } from '#web/lib/error-key';
import { refreshMe } from '#web/lib/session';

const TABS: TPlanType[] = ['unique', 'monthly', 'offer'];

/** Back from Stripe Checkout: say what happened (the webhook grants the credits, maybe a moment later). */
function CheckoutNotice() {
  const { t } = useTranslation('billing');
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const outcome = params.get('checkout');
  useEffect(() => {
    if (outcome === 'success') void refreshMe(queryClient);
  }, [outcome, queryClient]);
  if (outcome !== 'success' && outcome !== 'cancelled') return null;
  return (
    <p
      role="status"
      className={cn(
        'flex items-start gap-2 rounded-lg border p-4 text-sm',
        outcome === 'success'
          ? 'border-green-200 bg-green-50 text-green-900'
          : 'border-slate-200 bg-white text-slate-800',
      )}
    >
      <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {t(`checkout.${outcome}`)}
    </p>
  );
}

export default function BuyCreditsPage() {
  const { t, i18n } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const plans = usePlans();
  const [params] = useSearchParams();
  const purchase = usePurchaseCredits();
  const [tab, setTab] = useState<TPlanType>('unique');
  const [selected, setSelected] = useState<TPlanView | null>(null);
  const [completed, setCompleted] = useState<CompletedPurchase | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  // One key per chosen plan: a retry of the same choice can never be granted twice.
  const keyRef = useRef(newIdempotencyKey());

  const select = (plan: TPlanView | null) => {
    setSelected(plan);
    keyRef.current = newIdempotencyKey();
  };

  // Arriving with a plan in the address (an account page offer): its tab opens with it chosen as soon as
  // the server's catalogue is here, so what is bought is what the server sells. Done once, while rendering
  // (the key made for this screen is still unused, so it serves that choice).
  const [addressRead, setAddressRead] = useState(false);
  if (!addressRead && plans.data) {
    setAddressRead(true);
    const wanted = plannedChoice(params, plans.data.plans);
    if (wanted) {
      setTab(wanted.type);
      setSelected(wanted);
    }
  }

  const buy = () => {
    if (!selected) return;
    purchase.mutate(
      {
        body: {
          type: selected.type,
          credits: selected.credits,
          usdAmount: selected.priceUsd,
          planName: selected.name,
        },
        idempotencyKey: keyRef.current,
      },
      {
        onSuccess: (answer) => {
          if (answer.status === 'checkout') {
            setRedirecting(true);
            window.location.assign(answer.checkoutUrl);
            return;
          }
          select(null);
          setCompleted(answer);
        },
        onError: (err) =>
          toast({ title: t('error.title'), description: purchaseErrorMessage(err), variant: 'destructive' }),
      },
    );
  };

  // Refusals this screen words itself; the rest through the shared error wording.
  const purchaseErrorMessage = (err: Error) => {
    if (err instanceof ApiError && err.code === 'CONFLICT' && selected?.type === 'monthly') {
      return t('error.activePlan');
    }
    if (err instanceof ApiError && err.code === 'VALIDATION_ERROR') return t('error.planChanged');
    return errorMessage(t, err);
  };

  const busy = purchase.isPending || redirecting;
  const price = selected ? formatUsd(selected.priceUsd, i18n.language) : '';
  const label = redirecting
    ? t('redirecting')
    : purchase.isPending
      ? t('processing')
      : selected
        ? t(selected.type === 'monthly' ? 'buyMonthly' : 'buy', { plan: selected.name, price })
        : t('selectPlan');

  return (
    <div className="mx-auto max-w-6xl space-y-8 px-4 py-8 sm:py-10">
      <div>
        <IconLink to="/account" icon={ArrowLeft}>
          {t('back')}
        </IconLink>
        <h1 className="mt-3 text-2xl font-bold text-slate-900 sm:text-3xl">{t('title')}</h1>
        <p className="mt-1 text-slate-700">{t('subtitle')}</p>
      </div>

      <CheckoutNotice />

      {plans.data?.provider === 'demo' ? (
        <div
          className="flex items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950"
          data-testid="demo-mode"
        >
          <FlaskConical className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <p className="text-sm">
            <strong className="font-semibold">{t('demoMode')}.</strong> {t('demoModeBody')}
          </p>
        </div>
      ) : null}

      {plans.isPending ? (
        <Spinner label={tc('loading')} />
      ) : plans.isError ? (
        <div className="rounded-xl border border-red-200 bg-red-50 p-6 text-center">
          <p className="font-medium text-red-900">{t('loadError')}</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => void plans.refetch()}>
            {t('retry')}
          </Button>
        </div>
      ) : (
        <Tabs.Root
          value={tab}
          onValueChange={(value) => {
            setTab(value as TPlanType);
            select(null);
          }}
        >
          <Tabs.List
            aria-label={t('tabsLabel')}
            className="inline-flex w-full rounded-lg bg-slate-200/70 p-1 sm:w-auto"
          >
            {TABS.map((type) => (
              <Tabs.Trigger
                key={type}
                value={type}
                className="flex-1 rounded-md px-4 py-2 text-sm font-medium text-slate-700 transition-colors hover:text-slate-900 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm sm:flex-none"
              >
                {t(`tabs.${type}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {TABS.map((type) => {
            const list = plans.data.plans.filter((p) => p.type === type);
            return (
              <Tabs.Content key={type} value={type} className="mt-8 focus-visible:outline-none">
                <fieldset>
                  <legend className="sr-only">{t(`plansLabel.${type}`)}</legend>
                  <div
                    className={cn(
                      'grid gap-5 sm:grid-cols-2',
                      list.length > 4 ? 'lg:grid-cols-3 xl:grid-cols-5' : 'lg:grid-cols-4',
                    )}
                  >
                    {list.map((plan) => (
                      <PlanOption
                        key={plan.id}
                        plan={plan}
                        group={`plan-${type}`}
                        selected={selected?.type === type && selected.id === plan.id}
                        onSelect={() => select(plan)}
                      />
                    ))}
                  </div>
                </fieldset>
              </Tabs.Content>
            );
          })}
        </Tabs.Root>
      )}

      <div className="sticky bottom-0 z-10 -mx-4 border-t border-slate-200 bg-slate-50/95 px-4 py-4 backdrop-blur sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:p-0">
        <Button
          size="lg"
          className="w-full sm:w-auto sm:min-w-72"
          disabled={!selected || busy}
          onClick={buy}
          data-testid="buy-button"
        >
          {busy ? <Loader2 className="size-5 animate-spin" aria-hidden="true" /> : null}
          {label}
        </Button>
      </div>

      <InfoPanels />

      <PurchaseSuccessDialog purchase={completed} onClose={() => setCompleted(null)} />
    </div>
  );
}
