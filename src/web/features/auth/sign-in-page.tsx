import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { EmailField, PasswordField } from '#web/components/form-fields';
import { errorMessage } from '#web/lib/error-key';
import { isAdminUser } from '#web/lib/session';
import { useSignIn } from './api/sign-in';
import { AuthFooterLink, AuthForm, AuthFormShell } from './auth-form-shell';

export default function SignInPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  // Where the route guard sent the person from (an app's consent page, say): back there once signed in.
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  const back = typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : null;
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    setError(null);
    signIn.mutate(
      { email, password },
      {
        onSuccess: (user) => void navigate(back ?? (isAdminUser(user) ? '/admin' : '/workflows')),
        // Worded in the reader's language: wrong credentials, throttled, suspended.
        onError: (err) => setError(errorMessage(t, err, { UNAUTHENTICATED: 'auth:signin.error' })),
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
