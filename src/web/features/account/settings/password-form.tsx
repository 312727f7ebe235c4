import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN } from '#shared/contract/limits';
import { PasswordField } from '#web/components/form-fields';
import { toast } from '#web/components/ui/toast';
import { formErrors } from '#web/lib/error-key';
import { useChangePassword } from '../api/change-password';
import { SettingsFormCard } from './settings-card';

type Field = 'currentPassword' | 'newPassword';

/** Current and new password; the account's other sessions end, this one stays signed in. */
export function PasswordForm() {
  const { t } = useTranslation('account');
  const change = useChangePassword();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});

  const submit = () => {
    const found: typeof errors = {};
    if (!currentPassword) found.currentPassword = t('settings.password.currentRequired');
    if (newPassword.length < PASSWORD_MIN)
      found.newPassword = t('settings.password.tooShort', { min: PASSWORD_MIN });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrentPassword('');
          setNewPassword('');
          toast({
            title: t('settings.password.done'),
            description: t('settings.password.doneBody'),
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
    </SettingsFormCard>
  );
}
