import { Loader2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { StatePanel } from './state-panel';

/** While the workflow works: a spinner and the latest progress message the workflow sent. */
export function ProgressScreen({ title, message }: { title: string; message: string | null }) {
  const { t } = useTranslation('execute');
  return (
    <StatePanel
      busy
      icon={<Loader2 className="size-7 animate-spin" aria-hidden="true" />}
      title={t('progress.title')}
    >
      <p className="font-medium text-slate-900">{title}</p>
      <p className="mt-4 rounded-lg bg-brand-50 px-4 py-3 text-brand-800" data-testid="progress-message">
        {message || t('progress.waiting')}
      </p>
      <p className="mt-4 text-xs text-slate-700">{t('progress.note')}</p>
    </StatePanel>
  );
}
