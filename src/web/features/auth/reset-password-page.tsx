import { Link2Off } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PasswordField } from '#web/components/form-fields';
import { Button } from '#web/components/ui/button';
import { Callout } from '#web/components/ui/callout';
import { toast } from '#web/components/ui/toast';
import { ApiError } from '#web/lib/api-client';
import { errorMessage } from '#web/lib/error-key';
import { useConfirmPasswordReset } from './api/confirm-password-reset';
import { AuthFooterLink, AuthForm, AuthFormShell } from './auth-form-shell';

/** The page a reset link opens: a new password, then signed in on the catalogue. */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const confirm = useConfirmPasswordReset();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [invalidLink, setInvalidLink] = useState(token === '');

  const submit = () => {
    setError(null);
    confirm.mutate(
      { token, password },
      {
        onSuccess: () => {
          toast({ title: t('reset.done'), description: t('reset.doneBody'), variant: 'success' });
          void navigate('/workflows', { replace: true });
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'INVALID_TOKEN') setInvalidLink(true);
          else setError(errorMessage(t, err));
        },
      },
    );
  };

  const footer = <AuthFooterLink to="/signin">{t('forgot.toSignin')}</AuthFooterLink>;

  if (invalidLink) {
    return (
      <AuthFormShell title={t('reset.invalidTitle')} subtitle={t('reset.invalidSubtitle')} footer={footer}>
        <Callout role="alert" tone="danger" icon={Link2Off}>
          {t('common:errors.invalidToken')}
        </Callout>
        <Button asChild className="mt-4 w-full">
          <Link to="/forgot-password">{t('reset.requestNew')}</Link>
        </Button>
      </AuthFormShell>
    );
  }

  return (
    <AuthFormShell texts="reset" footer={footer}>
      <AuthForm texts="reset" onSubmit={submit} error={error} pending={confirm.isPending}>
        <PasswordField
          kind="new"
          id="reset-password"
          label={t('reset.newPassword')}
          aria-invalid={error ? true : undefined}
          value={password}
          onValueChange={setPassword}
        />
      </AuthForm>
    </AuthFormShell>
  );
}
