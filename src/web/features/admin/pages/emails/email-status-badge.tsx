import { useTranslation } from 'react-i18next';
import type { TEmailStatus } from '#shared/contract/emails';
import { Badge } from '#web/components/ui/badge';

const EMAIL_TONES = {
  pending: 'warning',
  sending: 'info',
  sent: 'success',
  failed: 'danger',
  held: 'neutral',
} as const;

/** Where a mail stands in the outbox. */
export function EmailStatusBadge({ status }: { status: TEmailStatus }) {
  const { t } = useTranslation('admin');
  return <Badge tone={EMAIL_TONES[status] ?? 'neutral'}>{t(`emails.status.${status}`)}</Badge>;
}
