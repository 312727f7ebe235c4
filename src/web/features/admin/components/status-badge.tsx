import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import type { TExecutionStatus } from '../../../../shared/contract/executions';

const EXECUTION_TONES = {
  completed: 'success',
  running: 'info',
  pending: 'warning',
  failed: 'danger',
  expired: 'neutral',
} as const;

/** A run's status; an unknown status shows as pending, as the spec asks. */
export function ExecutionStatusBadge({ status }: { status: TExecutionStatus | string }) {
  const { t } = useTranslation('admin');
  const known = (status in EXECUTION_TONES ? status : 'pending') as TExecutionStatus;
  return <Badge tone={EXECUTION_TONES[known]}>{t(`status.${known}`)}</Badge>;
}

export function ToggleBadge({ on, onLabel, offLabel }: { on: boolean; onLabel: string; offLabel: string }) {
  return <Badge tone={on ? 'success' : 'neutral'}>{on ? onLabel : offLabel}</Badge>;
}
