import type { TSessionUser } from '#shared/contract/auth';
import { AccountSection } from '../account-section';
import { DeleteAccountCard } from './delete-account-card';
import { EmailForm } from './email-form';
import { ExportCard } from './export-card';
import { NotificationsForm } from './notifications-form';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import { SessionsCard } from './sessions-card';

/** The account's settings: profile, sign-in details, devices, data, and deleting the account. */
export function SettingsSection({ user }: { user: TSessionUser }) {
  return (
    <AccountSection id="settings" texts="settings">
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <ProfileForm key={user.id} user={user} />
        <PasswordForm />
        <EmailForm user={user} />
        <ExportCard />
        <div className="lg:col-span-2">
          <NotificationsForm />
        </div>
        <div className="lg:col-span-2">
          <SessionsCard />
        </div>
        <div className="lg:col-span-2">
          <DeleteAccountCard credits={user.credits ?? 0} />
        </div>
      </div>
    </AccountSection>
  );
}
