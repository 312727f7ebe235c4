import { Minus, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { Input, Textarea } from '#web/components/ui/input';
import { toast } from '#web/components/ui/toast';
import type { TAdminUser } from '#shared/contract/admin';
import { useAdjustCredits } from '#web/features/admin/api/adjust-credits';
import { LabelledField } from '#web/features/admin/components/labelled-field';
import { SaveActions } from '#web/features/admin/components/save-actions';
import { formatNumber } from '#web/lib/format';
import { errorMessage } from '#web/lib/error-key';

interface AdjustCreditsDialogProps {
  user: TAdminUser | null;
  onClose(): void;
}

export function AdjustCreditsDialog({ user, onClose }: AdjustCreditsDialogProps) {
  const { t } = useTranslation('admin');
  return (
    <Dialog
      open={user !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('adjust.title')}
      description={user ? t('adjust.description', { email: user.email }) : undefined}
      closeLabel={t('common.close')}
    >
      {user ? <AdjustForm key={user.id} user={user} onDone={onClose} /> : null}
    </Dialog>
  );
}

/** Amount (a whole number, + adds, − takes away) and a reason that the audit log keeps. */
function AdjustForm({ user, onDone }: { user: TAdminUser; onDone(): void }) {
  const { t } = useTranslation('admin');
  const adjust = useAdjustCredits();
  const [amountText, setAmountText] = useState('0');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string; server?: string }>({});
  const amount = Number(amountText);
  const validAmount = amountText.trim() !== '' && Number.isInteger(amount);
  const after = validAmount ? user.credits + amount : user.credits;

  const step = (by: number) => setAmountText(String((validAmount ? amount : 0) + by));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (!validAmount) found.amount = t('adjust.errors.integer');
    else if (amount === 0) found.amount = t('adjust.errors.zero');
    else if (after < 0) found.amount = t('adjust.errors.belowZero', { credits: user.credits });
    if (!reason.trim()) found.reason = t('adjust.errors.reason');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    adjust.mutate(
      { userId: user.id, amount, reason: reason.trim() },
      {
        onSuccess: ({ credits }) => {
          toast({
            title: t('adjust.done'),
            description: t('adjust.newBalance', { email: user.email, credits: formatNumber(credits) }),
            variant: 'success',
          });
          onDone();
        },
        onError: (err) => {
          setErrors({ server: errorMessage(t, err) });
          toast({ title: t('adjust.error'), description: errorMessage(t, err), variant: 'destructive' });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-slate-700">
        {t('adjust.current')}: <strong className="text-slate-900">{formatNumber(user.credits)}</strong>
      </p>
      <LabelledField
        id="adjust-amount"
        label={t('adjust.amount')}
        error={errors.amount}
        help={
          <>
            {t('adjust.after')}:{' '}
            <strong className={after < 0 ? 'text-red-800' : 'text-slate-900'}>{formatNumber(after)}</strong>
          </>
        }
        helpLive
      >
        {(control) => (
          <div className="flex items-center gap-2">
            <Button variant="secondary" onClick={() => step(-1)} aria-label={t('adjust.subtract')}>
              <Minus className="size-4" aria-hidden="true" />
            </Button>
            <Input
              {...control}
              type="number"
              step={1}
              inputMode="numeric"
              className="w-32 text-center tabular-nums"
              value={amountText}
              onChange={(e) => setAmountText(e.target.value)}
            />
            <Button variant="secondary" onClick={() => step(1)} aria-label={t('adjust.add')}>
              <Plus className="size-4" aria-hidden="true" />
            </Button>
          </div>
        )}
      </LabelledField>
      <LabelledField id="adjust-reason" label={t('adjust.reason')} required error={errors.reason}>
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            required
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        )}
      </LabelledField>
      {errors.server ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {errors.server}
        </p>
      ) : null}
      <SaveActions label={t('adjust.submit')} pending={adjust.isPending} onCancel={onDone} />
    </form>
  );
}
