import { useTranslation } from 'react-i18next';
import { EXECUTION_STATUSES, type TExecutionStatus } from '../../../shared/contract/executions';
import { Badge } from '../../components/ui/badge';

const TONE: Record<TExecutionStatus, 'neutral' | 'info' | 'success' | 'danger' | 'warning'> = {
  pending: 'neutral',
  running: 'info',
  completed: 'success',
  failed: 'danger',
  expired: 'warning',
};

/** A run's status; anything the app does not know shows as pending (spec section 4). */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('executions');
  const known = (EXECUTION_STATUSES as readonly string[]).includes(status)
    ? (status as TExecutionStatus)
    : 'pending';
  return <Badge tone={TONE[known]}>{t(`status.${known}`)}</Badge>;
}
