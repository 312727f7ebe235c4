import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmailField, FullNameField, PasswordField } from '#web/components/form-fields';
import { currentLanguage } from '#web/i18n';
import { errorKey } from '#web/lib/error-key';
import { useSignUp } from './api/sign-up';
import { AuthForm, AuthFormShell } from './auth-form-shell';

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
      { fullName, email, password, language: currentLanguage() },
      {
        onSuccess: () => void navigate('/workflows'),
        // Worded in the reader's language: address taken, password too common, throttled.
        onError: (err) => setError(t(errorKey(err, { CONFLICT: 'auth:signup.emailTaken' }))),
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
      <AuthForm
        onSubmit={submit}
        error={error}
        pending={signUp.isPending}
        submitLabel={t('signup.submit')}
        pendingLabel={t('signup.submitting')}
      >
        <FullNameField
          id="signup-name"
          label={t('fields.fullName')}
          value={fullName}
          onValueChange={setFullName}
        />
        <EmailField id="signup-email" value={email} onValueChange={setEmail} />
        <PasswordField
          kind="new"
          id="signup-password"
          label={t('fields.password')}
          value={password}
          onValueChange={setPassword}
        />
      </AuthForm>
    </AuthFormShell>
  );
}
