import { useTranslation } from 'react-i18next';
import type { TPublicHealth } from '#shared/contract/operations';
import { formatDuration } from '#web/lib/format';
import { cn } from '#web/lib/utils';

/**
 * What the public reads of a workflow's health (decision 145): "succeeds N% of the time" and "usually takes
 * about X", once it has 20 finished runs in 30 days; "temporarily unavailable" while it is paused.
 */
export function HealthSummary({
  health,
  paused,
  className,
}: {
  health: TPublicHealth;
  paused: boolean;
  className?: string;
}) {
  const { t, i18n } = useTranslation('common');
  if (!paused && !health) return null;
  return (
    <p className={cn('flex flex-wrap gap-x-3 gap-y-1 text-sm', className)} data-testid="workflow-health">
      {paused ? <span className="font-semibold text-amber-800">{t('workflowHealth.paused')}</span> : null}
      {health ? (
        <span className="text-slate-700">
          {t('workflowHealth.succeeds', { percent: health.successPercent })}
        </span>
      ) : null}
      {health?.typicalMs != null ? (
        <span className="text-slate-700">
          {t('workflowHealth.takes', { duration: formatDuration(health.typicalMs, i18n.language) })}
        </span>
      ) : null}
    </p>
  );
}
