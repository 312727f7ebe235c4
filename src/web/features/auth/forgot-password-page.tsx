import { MailCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmailField } from '#web/components/form-fields';
import { Button } from '#web/components/ui/button';
import { errorMessage } from '#web/lib/error-key';
import { useRequestPasswordReset } from './api/request-password-reset';
import { AuthFooterLink, AuthForm, AuthFormShell } from './auth-form-shell';

/**
 * Asks for a reset link. The answer is the same whether an account exists for the address or not, and so
 * is the confirmation: the page never tells who has an account.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const confirmation = useRef<HTMLHeadingElement>(null);

  // Screen readers and keyboards land on the confirmation that replaced the form.
  useEffect(() => {
    if (sentTo) confirmation.current?.focus();
  }, [sentTo]);

  const submit = () => {
    setError(null);
    const address = email.trim();
    request.mutate(
      { email: address },
      {
        onSuccess: () => setSentTo(address),
        onError: (err) => setError(errorMessage(t, err)),
      },
    );
  };

  const footer = (
    <AuthFooterLink lead={t('forgot.remembered')} to="/signin">
      {t('forgot.toSignin')}
    </AuthFooterLink>
  );

  if (sentTo) {
    return (
      <AuthFormShell texts="forgot" footer={footer}>
        <div className="rounded-lg border border-green-200 bg-green-50 p-4" data-testid="forgot-sent">
          <h2
            ref={confirmation}
            tabIndex={-1}
            className="flex items-center gap-2 font-semibold text-green-900 focus:outline-none"
          >
            <MailCheck className="size-5 shrink-0" aria-hidden="true" />
            {t('forgot.sentTitle')}
          </h2>
          <p className="mt-2 text-sm text-green-900">{t('forgot.sentBody', { email: sentTo })}</p>
          <p className="mt-2 text-sm text-green-900">{t('forgot.sentHint')}</p>
        </div>
        <Button
          variant="secondary"
          className="mt-4 w-full"
          onClick={() => {
            setSentTo(null);
            request.reset();
          }}
        >
          {t('forgot.again')}
        </Button>
      </AuthFormShell>
    );
  }

  return (
    <AuthFormShell texts="forgot" footer={footer}>
      <AuthForm texts="forgot" onSubmit={submit} error={error} pending={request.isPending}>
        <EmailField id="forgot-email" value={email} onValueChange={setEmail} />
      </AuthForm>
    </AuthFormShell>
  );
}
