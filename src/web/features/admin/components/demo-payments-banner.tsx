import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { BannerMessage } from '#web/components/ui/callout';
import { useAdminStats } from '../api/get-stats';

/**
 * Above every admin page while a real deployment grants purchases for free (PAYMENT_PROVIDER=demo on
 * PostgreSQL): nothing else in the product shows it, and it costs money every day it goes unnoticed.
 */
export function DemoPaymentsBanner() {
  const { t } = useTranslation('admin');
  const { data } = useAdminStats();
  if (!data?.demoPayments) return null;
  return (
    <section
      aria-label={t('demoPayments.label')}
      data-testid="demo-payments-banner"
      className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4"
    >
      <BannerMessage icon={TriangleAlert} title={t('demoPayments.title')}>
        {t('demoPayments.body')}
      </BannerMessage>
    </section>
  );
}
