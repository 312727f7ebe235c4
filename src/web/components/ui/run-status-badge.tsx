import { useTranslation } from 'react-i18next';
import { EXECUTION_STATUSES, type TExecutionStatus } from '#shared/contract/executions';
import { Badge } from './badge';

/**
 * The one mapping of a run's status to a badge tone, for users and admins alike: waiting is neutral, working
 * is informational, done is success, failed is danger, and a run that timed out is a warning.
 */
export const RUN_STATUS_TONE = {
  pending: 'neutral',
  running: 'info',
  completed: 'success',
  failed: 'danger',
  expired: 'warning',
} as const satisfies Record<TExecutionStatus, 'neutral' | 'info' | 'success' | 'danger' | 'warning'>;

/** A status the app knows, or pending for anything else. */
function knownRunStatus(status: string): TExecutionStatus {
  return (EXECUTION_STATUSES as readonly string[]).includes(status)
    ? (status as TExecutionStatus)
    : 'pending';
}

/** A run's status; anything the app does not know shows as pending. Labels live in common.json (runStatus). */
export function RunStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('common');
  const known = knownRunStatus(status);
  return <Badge tone={RUN_STATUS_TONE[known]}>{t(`runStatus.${known}`)}</Badge>;
}
