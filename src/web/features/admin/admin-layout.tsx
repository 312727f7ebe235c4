import { useTranslation } from 'react-i18next';

export default function Page() {
  const { t } = useTranslation('admin');
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-2xl font-bold text-slate-900">{t('title')}</h1>
    </div>
  );
}
