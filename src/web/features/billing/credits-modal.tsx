import { Check } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';

const POINTS = ['runs', 'results', 'refunds', 'noExpiry'] as const;

export default function CreditsModal({
  open,
  onOpenChange,
  credits,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  credits: number;
}) {
  const { t } = useTranslation('billing');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t('modal.title')} closeLabel={tc('close')}>
      <p className="text-3xl font-bold text-slate-900">{t('modal.balance', { count: credits })}</p>
      <ul className="mt-4 space-y-2">
        {POINTS.map((p) => (
          <li key={p} className="flex items-start gap-2 text-sm text-slate-800">
            <Check className="mt-0.5 size-4 shrink-0 text-green-700" aria-hidden="true" />
            {t(`modal.features.${p}`)}
          </li>
        ))}
      </ul>
      <Button
        className="mt-6 w-full"
        onClick={() => {
          onOpenChange(false);
          void navigate('/buy-credits');
        }}
      >
        {t('modal.viewPlans')}
      </Button>
      <p className="mt-4 text-xs text-slate-700">{t('modal.consumption')}</p>
      <p className="text-xs text-slate-700">{t('modal.noExpiryNote')}</p>
    </Dialog>
  );
}
