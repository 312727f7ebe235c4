import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { EmailField, FullNameField, PasswordField } from '#web/components/form-fields';
import { currentLanguage } from '#web/i18n';
import { errorMessage } from '#web/lib/error-key';
import { useSignUp } from './api/sign-up';
import { AuthFooterLink, AuthForm, AuthFormShell } from './auth-form-shell';

export default function SignUpPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const signUp = useSignUp();
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    setError(null);
    signUp.mutate(
      { fullName, email, password, language: currentLanguage() },
      {
        onSuccess: () => void navigate('/workflows'),
        // Worded in the reader's language: address taken, password too common, throttled.
        onError: (err) => setError(errorMessage(t, err, { CONFLICT: 'auth:signup.emailTaken' })),
      },
    );
  };

  return (
    <AuthFormShell
      texts="signup"
      footer={
        <AuthFooterLink lead={t('signup.haveAccount')} to="/signin">
          {t('signup.toSignin')}
        </AuthFooterLink>
      }
    >
      <AuthForm texts="signup" onSubmit={submit} error={error} pending={signUp.isPending}>
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
