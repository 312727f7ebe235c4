import { CircleCheck, Link2Off } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ResendVerificationButton } from '#web/components/resend-verification-button';
import { Button } from '#web/components/ui/button';
import { Callout } from '#web/components/ui/callout';
import { Spinner } from '#web/components/ui/spinner';
import { ApiError } from '#web/lib/api-client';
import { errorMessage } from '#web/lib/error-key';
import { useMe } from '#web/lib/session';
import { useVerifyEmail } from './api/verify-email';
import { AuthFormShell } from './auth-form-shell';

/** The page a verification (or e-mail change) link opens: it uses the token once, then says what happened. */
export default function VerifyEmailPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const { data: user } = useMe();
  const { mutate: verify, data, error, isIdle, isPending } = useVerifyEmail();

  // A token works once: post it exactly once per token, even when StrictMode runs effects twice.
  const postedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!token || postedFor.current === token) return;
    postedFor.current = token;
    verify({ token });
  }, [token, verify]);

  const next = user ? (
    <Button asChild className="w-full">
      <Link to="/workflows">{t('verify.toWorkflows')}</Link>
    </Button>
  ) : (
    <Button asChild className="w-full">
      <Link to="/signin">{t('verify.toSignin')}</Link>
    </Button>
  );

  if (token && (isIdle || isPending)) {
    return (
      <AuthFormShell title={t('verify.checkingTitle')} subtitle={t('verify.checkingBody')}>
        <Spinner label={t('verify.checking')} className="p-4" />
      </AuthFormShell>
    );
  }

  if (data) {
    return (
      <AuthFormShell title={t('verify.doneTitle')} subtitle={t('verify.doneSubtitle')}>
        <Callout role="status" tone="success" icon={CircleCheck} className="mb-4" data-testid="verify-done">
          {data.kind === 'email_changed'
            ? t('verify.changed', { email: data.email })
            : t('verify.verified', { email: data.email })}
        </Callout>
        {next}
      </AuthFormShell>
    );
  }

  // No token in the link, or the server refused it.
  const code = error instanceof ApiError ? error.code : 'INVALID_TOKEN';
  const message =
    !token || code === 'INVALID_TOKEN'
      ? t('common:errors.invalidToken')
      : errorMessage(t, error, { CONFLICT: 'auth:verify.taken' });
  return (
    <AuthFormShell title={t('verify.failedTitle')} subtitle={t('verify.failedSubtitle')}>
      <Callout role="alert" tone="danger" icon={Link2Off} className="mb-4">
        {message}
      </Callout>
      {user && !user.emailVerified ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">{t('verify.resendHint', { email: user.email })}</p>
          <ResendVerificationButton email={user.email} variant="primary" size="md" className="w-full" />
        </div>
      ) : user ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">{t('verify.stillVerified', { email: user.email })}</p>
          {next}
        </div>
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">{t('verify.signinToResend')}</p>
          {next}
        </div>
      )}
    </AuthFormShell>
  );
}
