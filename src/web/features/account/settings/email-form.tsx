import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TSessionUser } from '#shared/contract/auth';
import { EmailField, PasswordField } from '#web/components/form-fields';
import { ResendVerificationButton } from '#web/components/resend-verification-button';
import { Badge } from '#web/components/ui/badge';
import { Callout } from '#web/components/ui/callout';
import { formErrors } from '#web/lib/error-key';
import { useChangeEmail } from '../api/change-email';
import { SettingsFormCard } from './settings-card';

type Field = 'newEmail' | 'password';

/**
 * The current address (verified or not) and a change to a new one: the new address gets a link, and the
 * change applies only when it is opened.
 */
export function EmailForm({ user }: { user: TSessionUser }) {
  const { t } = useTranslation('account');
  const change = useChangeEmail();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});

  const submit = () => {
    const address = newEmail.trim();
    const found: typeof errors = {};
    if (!/^[^\s@]+@[^\s@]+$/.test(address)) found.newEmail = t('settings.email.invalid');
    else if (address.toLowerCase() === user.email.toLowerCase()) found.newEmail = t('settings.email.same');
    if (!password) found.password = t('settings.passwordRequired');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(null);
    change.mutate(
      { newEmail: address, password },
      {
        onSuccess: ({ pendingEmail }) => {
          setPending(pendingEmail);
          setNewEmail('');
          setPassword('');
        },
        onError: (err) =>
          setErrors(
            formErrors(
              t,
              err,
              ['newEmail', 'password'],
              {
                CONFLICT: 'account:settings.email.taken',
                'VALIDATION_ERROR:password': 'account:settings.wrongPassword',
                'VALIDATION_ERROR:newEmail': 'account:settings.email.invalid',
              },
              { CONFLICT: 'newEmail' },
            ),
          ),
      },
    );
  };

  return (
    <SettingsFormCard
      section="email"
      intro={
        <>
          <CurrentAddress user={user} />
          {pending ? (
            <Callout
              role="status"
              tone="success"
              icon={MailCheck}
              compact
              className="mb-4"
              data-testid="email-change-pending"
            >
              {t('settings.email.pending', { email: pending, current: user.email })}
            </Callout>
          ) : null}
        </>
      }
      onSubmit={submit}
      formError={errors.form}
      pending={change.isPending}
    >
      <EmailField
        id="settings-new-email"
        label={t('settings.email.new')}
        value={newEmail}
        onValueChange={setNewEmail}
        error={errors.newEmail}
      />
      <PasswordField
        kind="current"
        id="settings-email-password"
        label={t('settings.passwordLabel')}
        value={password}
        onValueChange={setPassword}
        error={errors.password}
      />
    </SettingsFormCard>
  );
}

/** The address the account has now, whether it is verified, and a new link when it is not. */
function CurrentAddress({ user }: { user: TSessionUser }) {
  const { t } = useTranslation('account');
  return (
    <div className="mb-4 rounded-lg bg-slate-50 p-3 text-sm">
      <p className="text-slate-700">{t('settings.email.current')}</p>
      <p className="mt-0.5 flex flex-wrap items-center gap-2">
        <span className="break-all font-medium text-slate-900">{user.email}</span>
        <Badge tone={user.emailVerified ? 'success' : 'warning'}>
          {user.emailVerified ? t('settings.email.verified') : t('settings.email.unverified')}
        </Badge>
      </p>
      {user.emailVerified ? null : <ResendVerificationButton email={user.email} className="mt-2" />}
    </div>
  );
}
