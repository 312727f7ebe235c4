import { PartyPopper } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TPlanType } from '#shared/contract/plans';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';

export interface CompletedPurchase {
  planName: string;
  type: TPlanType;
  creditsGranted: number;
  balance: number;
}

export function PurchaseSuccessDialog({
  purchase,
  onClose,
}: {
  purchase: CompletedPurchase | null;
  onClose(): void;
}) {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dialog
      open={purchase !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('success.title')}
      closeLabel={tc('close')}
    >
      {purchase ? (
        <div className="text-center">
          <div className="mx-auto flex size-14 items-center justify-center rounded-full bg-green-100 text-green-800">
            <PartyPopper className="size-7" aria-hidden="true" />
          </div>
          <p className="mt-4 text-slate-900">{t('success.body', { count: purchase.creditsGranted })}</p>
          <p className="mt-1 text-2xl font-bold text-slate-900" data-testid="success-balance">
            {t('success.balance', { count: purchase.balance })}
          </p>
          {purchase.type === 'monthly' ? (
            <p className="mt-2 text-sm text-slate-700">{t('success.monthly', { plan: purchase.planName })}</p>
          ) : null}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-center">
            <Button variant="secondary" onClick={onClose}>
              {t('success.close')}
            </Button>
            <Button
              onClick={() => {
                onClose();
                void navigate('/workflows');
              }}
            >
              {t('success.explore')}
            </Button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
