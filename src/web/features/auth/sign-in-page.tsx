import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Input, Label } from '../../components/ui/input';
import { ApiError } from '../../lib/api';
import { isAdminUser } from '../../lib/session';
import { useSignIn } from './api/sign-in';
import { AuthFormShell, ErrorBanner } from './auth-form-shell';

export default function SignInPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    signIn.mutate(
      { email, password },
      {
        onSuccess: (user) => void navigate(isAdminUser(user) ? '/admin' : '/workflows'),
        onError: (err) => setError(err instanceof ApiError && err.message ? err.message : t('signin.error')),
      },
    );
  };

  return (
    <AuthFormShell
      title={t('signin.title')}
      subtitle={t('signin.subtitle')}
      footer={
        <>
          {t('signin.noAccount')}{' '}
          <Link to="/signup" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            {t('signin.toSignup')}
          </Link>
        </>
      }
    >
      {error ? <ErrorBanner message={error} /> : null}
      <form onSubmit={submit} className="space-y-4">
        <div>
          <Label htmlFor="signin-email">{t('fields.email')}</Label>
          <Input
            id="signin-email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div>
          <Label htmlFor="signin-password">{t('fields.password')}</Label>
          <Input
            id="signin-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <Button type="submit" className="w-full" disabled={signIn.isPending}>
          {signIn.isPending ? t('signin.submitting') : t('signin.submit')}
        </Button>
      </form>
    </AuthFormShell>
  );
}
