import { useTranslation } from 'react-i18next';
import { Spinner } from '#web/components/ui/spinner';
import { useMe } from '#web/lib/session';
import { ApiKeysSection } from './api-keys-section';
import { ConnectedAppsSection } from './connected-apps-section';
import { PlanCards } from './plan-cards';
import { ProfileCard } from './profile-card';
import { SettingsSection } from './settings/settings-section';
import { SubscriptionPanel } from './subscription-panel';
import { TransactionHistory } from './transaction-history';
import { WebhooksSection } from './webhooks-section';

export default function AccountPage() {
  const { t } = useTranslation('account');
  const { t: tc } = useTranslation();
  const { data: user } = useMe();
  // The route guard renders this page only with a user; the spinner covers a refetch in flight.
  if (!user) return <Spinner label={tc('loading')} className="min-h-[50vh]" />;
  return (
    <div className="mx-auto max-w-5xl space-y-8 px-4 py-8 sm:py-10">
      <header>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{t('title')}</h1>
        <p className="mt-1 text-slate-700">{t('subtitle')}</p>
      </header>
      <ProfileCard user={user} />
      <SubscriptionPanel />
      <PlanCards />
      <TransactionHistory />
      <SettingsSection user={user} />
      <ApiKeysSection />
      <ConnectedAppsSection />
      <WebhooksSection />
    </div>
  );
}
