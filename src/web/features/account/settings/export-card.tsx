import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { SettingsCard } from './settings-card';
import { api } from '#web/lib/api-client';

/** The JSON file the server sends as an attachment: profile, runs, transactions, subscriptions. */
const ACCOUNT_EXPORT_URL = api.url('/api/account/export');

export function ExportCard() {
  const { t } = useTranslation('account');
  return (
    <SettingsCard section="export">
      <div className="mt-auto">
        <Button asChild variant="secondary">
          <a href={ACCOUNT_EXPORT_URL} download>
            <Download className="size-4" aria-hidden="true" />
            {t('settings.export.submit')}
          </a>
        </Button>
      </div>
    </SettingsCard>
  );
}
