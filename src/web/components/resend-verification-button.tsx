import { useQueryClient } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client';
import { errorMessage } from '../lib/error-key';
import { useResendVerification } from '../lib/resend-verification';
import { Button, type ButtonProps } from './ui/button';
import { toast } from './ui/toast';
import { refreshMe } from '#web/lib/session';

/**
 * Mails the signed-in person a new verification link, with a toast either way. An address verified
 * meanwhile (409) refreshes the session, so the reminders go away.
 */
export function ResendVerificationButton({
  email,
  variant = 'secondary',
  size = 'sm',
  className,
}: {
  email: string;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  className?: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const resend = useResendVerification();
  const send = () =>
    resend.mutate(undefined, {
      onSuccess: () =>
        toast({
          title: t('verify.sentTitle'),
          description: t('verify.sentBody', { email }),
          variant: 'success',
        }),
      onError: (err) => {
        if (err instanceof ApiError && err.code === 'CONFLICT') {
          void refreshMe(queryClient);
          toast({ title: t('verify.alreadyVerified'), variant: 'success' });
          return;
        }
        toast({ title: t('verify.resendError'), description: errorMessage(t, err), variant: 'destructive' });
      },
    });
  return (
    <Button variant={variant} size={size} className={className} onClick={send} disabled={resend.isPending}>
      <MailCheck className="size-4" aria-hidden="true" />
      {resend.isPending ? t('verify.resending') : t('verify.resend')}
    </Button>
  );
}
