import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TSessionUser } from '#shared/contract/auth';
import { LANGUAGES, type TLanguage } from '#shared/contract/common';
import { FullNameField } from '#web/components/form-fields';
import { Label } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { toast } from '#web/components/ui/toast';
import { formErrors } from '#web/lib/error-key';
import { browserTimezone, timezoneNames } from '#web/lib/timezone';
import { useUpdateProfile } from '../api/update-profile';
import { SettingsFormCard } from './settings-card';

/** Each language under its own name, so anyone finds theirs. */
const LANGUAGE_NAMES: Record<TLanguage, string> = { es: 'Español', en: 'English' };

/** Name and language; the language is the one of the person's mails, and the app switches to it too. */
export function ProfileForm({ user }: { user: TSessionUser }) {
  const { t, i18n } = useTranslation('account');
  const update = useUpdateProfile();
  const [fullName, setFullName] = useState(user.fullName ?? user.full_name ?? '');
  const [language, setLanguage] = useState<TLanguage>(user.language);
  const [timezone, setTimezone] = useState(user.timezone ?? browserTimezone());
  const zones = useMemo(() => timezoneNames(timezone), [timezone]);
  const [errors, setErrors] = useState<{ fullName?: string; form?: string }>({});

  const submit = () => {
    const name = fullName.trim();
    if (!name) {
      setErrors({ fullName: t('settings.profile.nameRequired') });
      return;
    }
    setErrors({});
    update.mutate(
      { fullName: name, language, timezone },
      {
        onSuccess: async (saved) => {
          if (i18n.resolvedLanguage !== saved.language) {
            localStorage.setItem('lng', saved.language);
            await i18n.changeLanguage(saved.language);
          }
          // Worded in the language just chosen.
          toast({ title: i18n.t('account:settings.profile.saved'), variant: 'success' });
        },
        onError: (err) => setErrors(formErrors(t, err, ['fullName'])),
      },
    );
  };

  return (
    <SettingsFormCard section="profile" onSubmit={submit} formError={errors.form} pending={update.isPending}>
      <FullNameField
        id="settings-name"
        label={t('settings.profile.name')}
        value={fullName}
        onValueChange={setFullName}
        error={errors.fullName}
      />
      <div>
        <Label htmlFor="settings-language">{t('settings.profile.language')}</Label>
        <Select
          id="settings-language"
          value={language}
          onChange={(e) => setLanguage(e.target.value as TLanguage)}
          aria-describedby="settings-language-hint"
        >
          {LANGUAGES.map((lng) => (
            <option key={lng} value={lng} lang={lng}>
              {LANGUAGE_NAMES[lng]}
            </option>
          ))}
        </Select>
        <p id="settings-language-hint" className="mt-1 text-xs text-slate-700">
          {t('settings.profile.languageHint')}
        </p>
      </div>
      <div>
        <Label htmlFor="settings-timezone">{t('settings.profile.timezone')}</Label>
        <Select
          id="settings-timezone"
          value={timezone}
          onChange={(e) => setTimezone(e.target.value)}
          aria-describedby="settings-timezone-hint"
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </Select>
        <p id="settings-timezone-hint" className="mt-1 text-xs text-slate-700">
          {t('settings.profile.timezoneHint')}
        </p>
      </div>
    </SettingsFormCard>
  );
}
