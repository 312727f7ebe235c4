import { useTranslation } from 'react-i18next';
import { Card } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { useAdminConfig } from '#web/features/admin/api/get-config';
import { PageHeader } from '#web/features/admin/components/page-header';
import { ConfigEntryRow } from './config-entry-row';

export default function ConfigPage() {
  const { t } = useTranslation('admin');
  const config = useAdminConfig();
  return (
    <div>
      <PageHeader title={t('config.title')} subtitle={t('config.subtitle')} />
      {config.isLoading ? (
        <Spinner label={t('common.loading')} />
      ) : config.error ? (
        <p role="alert" className="text-red-800">
          {t('common.loadError', { message: config.error.message })}
        </p>
      ) : (
        <Card>
          <ul className="divide-y divide-slate-200">
            {(config.data ?? []).map((entry) => (
              <ConfigEntryRow key={entry.id} entry={entry} />
            ))}
          </ul>
        </Card>
      )}
    </div>
  );
}
