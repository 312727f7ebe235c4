import { useTranslation } from 'react-i18next';
import type { TSessionUser } from '#shared/contract/auth';
import { DeleteAccountCard } from './delete-account-card';
import { EmailForm } from './email-form';
import { ExportCard } from './export-card';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import { SessionsCard } from './sessions-card';

/** The account's settings: profile, sign-in details, devices, data, and deleting the account. */
export function SettingsSection({ user }: { user: TSessionUser }) {
  const { t } = useTranslation('account');
  return (
    <section id="settings" aria-labelledby="settings-heading" className="scroll-mt-20">
      <h2 id="settings-heading" className="text-xl font-bold text-slate-900">
        {t('settings.heading')}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t('settings.subtitle')}</p>
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <ProfileForm key={user.id} user={user} />
        <PasswordForm />
        <EmailForm user={user} />
        <div className="grid gap-6">
          <SessionsCard />
          <ExportCard />
        </div>
        <div className="lg:col-span-2">
          <DeleteAccountCard credits={user.credits ?? 0} />
        </div>
      </div>
    </section>
  );
}
