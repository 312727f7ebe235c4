import { Bot } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { BannerMessage } from '#web/components/ui/callout';
import { Card } from '#web/components/ui/card';
import { useAlertPreference, useSetAlertPreference } from '#web/features/admin/api/alert-preference';
import { useAdminConfig } from '#web/features/admin/api/get-config';
import { useAdminStats } from '#web/features/admin/api/get-stats';
import { Loaded } from '#web/features/admin/components/loaded';
import { PageHeader } from '#web/features/admin/components/page-header';
import { ConfigEntryRow } from './config-entry-row';

export default function ConfigPage() {
  const { t } = useTranslation('admin');
  const config = useAdminConfig();
  return (
    <div>
      <PageHeader title={t('config.title')} subtitle={t('config.subtitle')} />
      <AssistantNotice />
      <AlertSwitch />
      <Loaded query={config}>
        {(entries = []) => (
          <Card>
            <ul className="divide-y divide-slate-200">
              {entries.map((entry) => (
                <ConfigEntryRow key={entry.id} entry={entry} />
              ))}
            </ul>
          </Card>
        )}
      </Loaded>
    </div>
  );
}

/** Which assistant answers chats: the built-in scripted one unless the server has an LLM configured. */
function AssistantNotice() {
  const { t } = useTranslation('admin');
  const { data } = useAdminStats();
  if (!data) return null;
  return (
    <section
      aria-label={t('config.assistantLabel')}
      data-testid="assistant-notice"
      className={
        data.demoAssistant
          ? 'mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4'
          : 'mb-6 rounded-lg border border-slate-200 bg-white p-4'
      }
    >
      {data.demoAssistant ? (
        <BannerMessage icon={Bot} title={t('config.demoAssistantTitle')}>
          {t('config.demoAssistantBody')}
        </BannerMessage>
      ) : (
        <p className="flex items-start gap-2 text-sm text-slate-800">
          <Bot className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {t('config.llmAssistant')}
        </p>
      )}
    </section>
  );
}

/** This admin's own choice: the workflow alert mails (decision 146). */
function AlertSwitch() {
  const { t } = useTranslation('admin');
  const preference = useAlertPreference();
  const change = useSetAlertPreference();
  if (!preference.data) return null;
  return (
    <section className="mb-6 rounded-lg border border-slate-200 bg-white p-4">
      <label className="flex items-start gap-3 text-sm text-slate-900">
        <input
          type="checkbox"
          className="mt-0.5 size-4"
          checked={preference.data.workflowAlerts}
          disabled={change.isPending}
          onChange={(e) => change.mutate(e.target.checked)}
        />
        <span>
          <span className="font-medium">{t('config.alertsLabel')}</span>
          <span className="block text-slate-700">{t('config.alertsHelp')}</span>
        </span>
      </label>
    </section>
  );
}
