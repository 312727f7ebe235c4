import { Coins } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '#web/components/ui/button';
import { Dialog, DialogActions } from '#web/components/ui/dialog';

/**
 * Shown when a run cannot be paid for (402 at its start, at its answers or at a chat's first message): how
 * many credits it needs, and the way to get them. Closing it leaves the page, or, with `onClose` (the answers
 * were refused), returns to the form or conversation as it was.
 */
export function InsufficientCreditsDialog({
  required,
  balance,
  onClose,
}: {
  required: number;
  balance: number | null;
  onClose?: () => void;
}) {
  const { t } = useTranslation('execute');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const leave = onClose ?? (() => void navigate('/workflows'));
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : leave())}
      title={t('credits.title')}
      description={t('credits.message')}
      closeLabel={tc('close')}
    >
      <div className="flex items-center gap-4 rounded-xl bg-amber-50 p-4">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-amber-100 text-amber-800">
          <Coins className="size-5" aria-hidden="true" />
        </span>
        <div>
          <p className="text-base font-semibold text-slate-900" data-testid="required-credits">
            {t('credits.required', { count: required })}
          </p>
          {balance !== null ? (
            <p className="text-sm text-slate-700">{t('credits.balance', { count: balance })}</p>
          ) : null}
        </div>
      </div>
      <p className="mt-4 text-sm leading-6 text-slate-700">{t('credits.description')}</p>
      <DialogActions cancelLabel={t('credits.cancel')} onCancel={leave} className="mt-6">
        <Button onClick={() => void navigate('/account')}>{t('credits.buy')}</Button>
      </DialogActions>
    </Dialog>
  );
}
