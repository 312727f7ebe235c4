import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmailField, PasswordField } from '#web/components/form-fields';
import { errorKey } from '#web/lib/error-key';
import { isAdminUser } from '#web/lib/session';
import { useSignIn } from './api/sign-in';
import { AuthFooterLink, AuthForm, AuthFormShell } from './auth-form-shell';

export default function SignInPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    setError(null);
    signIn.mutate(
      { email, password },
      {
        onSuccess: (user) => void navigate(isAdminUser(user) ? '/admin' : '/workflows'),
        // Worded in the reader's language: wrong credentials, throttled, suspended.
        onError: (err) => setError(t(errorKey(err, { UNAUTHENTICATED: 'auth:signin.error' }))),
      },
    );
  };

  return (
    <AuthFormShell
      texts="signin"
      footer={
        <AuthFooterLink lead={t('signin.noAccount')} to="/signup">
          {t('signin.toSignup')}
        </AuthFooterLink>
      }
    >
      <AuthForm texts="signin" onSubmit={submit} error={error} pending={signIn.isPending}>
        <EmailField id="signin-email" value={email} onValueChange={setEmail} />
        <PasswordField
          kind="current"
          id="signin-password"
          label={t('fields.password')}
          labelAside={
            <Link
              to="/forgot-password"
              className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
            >
              {t('signin.forgot')}
            </Link>
          }
          value={password}
          onValueChange={setPassword}
        />
      </AuthForm>
    </AuthFormShell>
  );
}
