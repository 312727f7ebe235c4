import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN } from '#shared/contract/limits';
import { PasswordField } from '#web/components/form-fields';
import { toast } from '#web/components/ui/toast';
import { formErrors } from '#web/lib/error-key';
import { useChangePassword } from '../api/change-password';
import { SettingsFormCard } from './settings-card';

type Field = 'currentPassword' | 'newPassword';

/**
 * Current and new password; the account's other sessions end, this one stays signed in. The API keys are
 * revoked too unless the person ticks the box to keep them (unticked by default: a password changed because
 * someone else knew it should not leave that someone's keys working).
 */
export function PasswordForm() {
  const { t } = useTranslation('account');
  const change = useChangePassword();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [keepApiAccess, setKeepApiAccess] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});

  const submit = () => {
    const found: typeof errors = {};
    if (!currentPassword) found.currentPassword = t('settings.password.currentRequired');
    if (newPassword.length < PASSWORD_MIN)
      found.newPassword = t('settings.password.tooShort', { min: PASSWORD_MIN });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    change.mutate(
      { currentPassword, newPassword, keepApiAccess },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setNewPassword('');
          setKeepApiAccess(false);
          toast({
            title: t('settings.password.done'),
            description: t(
              keepApiAccess ? 'settings.password.doneBody' : 'settings.password.doneBodyKeysRevoked',
            ),
            variant: 'success',
          });
        },
        onError: (err) =>
          setErrors(
            formErrors(t, err, ['currentPassword', 'newPassword'], {
              'VALIDATION_ERROR:currentPassword': 'account:settings.password.wrongCurrent',
            }),
          ),
      },
    );
  };

  return (
    <SettingsFormCard section="password" onSubmit={submit} formError={errors.form} pending={change.isPending}>
      <PasswordField
        kind="current"
        id="settings-current-password"
        label={t('settings.password.current')}
        value={currentPassword}
        onValueChange={setCurrentPassword}
        error={errors.currentPassword}
      />
      <PasswordField
        kind="new"
        id="settings-new-password"
        label={t('settings.password.new')}
        value={newPassword}
        onValueChange={setNewPassword}
        error={errors.newPassword}
      />
      <div>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            id="settings-keep-api-access"
            className="size-4 accent-brand-600"
            checked={keepApiAccess}
            onChange={(e) => setKeepApiAccess(e.target.checked)}
            aria-describedby="settings-keep-api-access-hint"
          />
          {t('settings.password.keepApiAccess')}
        </label>
        <p id="settings-keep-api-access-hint" className="mt-1 text-xs text-slate-700">
          {t('settings.password.keepApiAccessHint')}
        </p>
      </div>
    </SettingsFormCard>
  );
}
