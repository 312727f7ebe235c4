import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PASSWORD_MIN } from '../../../shared/contract/limits';
import { Button } from '../../components/ui/button';
import { Input, Label } from '../../components/ui/input';
import { ApiError } from '../../lib/api';
import { useSignUp } from './api/sign-up';
import { AuthFormShell, ErrorBanner } from './auth-form-shell';

export default function SignUpPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const signUp = useSignUp();
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    signUp.mutate(
      { fullName, email, password },
      {
        onSuccess: () => void navigate('/workflows'),
        onError: (err) => setError(err instanceof ApiError && err.message ? err.message : t('signup.error')),
      },
    );
  };

  return (
    <AuthFormShell
      title={t('signup.title')}
      subtitle={t('signup.subtitle')}
      footer={
        <>
          {t('signup.haveAccount')}{' '}
          <Link to="/signin" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            {t('signup.toSignin')}
          </Link>
        </>
      }
    >
      {error ? <ErrorBanner message={error} /> : null}
      <form onSubmit={submit} className="space-y-4">
        <div>
          <Label htmlFor="signup-name">{t('fields.fullName')}</Label>
          <Input
            id="signup-name"
            autoComplete="name"
            required
            maxLength={120}
            value={fullName}
            onChange={(e) => setFullName(e.target.value)}
          />
        </div>
        <div>
          <Label htmlFor="signup-email">{t('fields.email')}</Label>
          <Input
            id="signup-email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div>
          <Label htmlFor="signup-password">{t('fields.password')}</Label>
          <Input
            id="signup-password"
            type="password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN}
            aria-describedby="signup-password-hint"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <p id="signup-password-hint" className="mt-1 text-xs text-slate-700">
            {t('fields.passwordHint', { min: PASSWORD_MIN })}
          </p>
        </div>
        <Button type="submit" className="w-full" disabled={signUp.isPending}>
          {signUp.isPending ? t('signup.submitting') : t('signup.submit')}
        </Button>
      </form>
    </AuthFormShell>
  );
}
