import { useTranslation } from 'react-i18next';
import type { TAdminStats } from '#shared/contract/admin';
import { BarChart, type ChartPoint, type ChartSeries } from '#web/features/admin/components/bar-chart';
import { formatDay, formatNumber } from '#web/lib/format';

// Colours keep at least 3:1 against white (WCAG 1.4.11) and stay apart for common colour blindness;
// the legend, the summary and the data table carry the same information without colour. The hues follow the
// run-status badge (components/ui/run-status-badge): pending grey, running blue, completed green, failed red,
// expired amber.
const RUN_COLOURS = {
  completed: '#15803d',
  running: '#0369a1',
  pending: '#64748b',
  failed: '#b91c1c',
  expired: '#b45309',
} as const;
const CREDIT_COLOURS = { granted: '#4f46e5', spent: '#d97706' } as const;

export function RunsChart({ days }: { days: TAdminStats['runsPerDay'] }) {
  const { t } = useTranslation('admin');
  const keys = ['completed', 'running', 'pending', 'failed', 'expired'] as const;
  const series: ChartSeries[] = keys.map((k) => ({
    key: k,
    label: t(`runStatus.${k}`, { ns: 'common' }),
    color: RUN_COLOURS[k],
  }));
  const points: ChartPoint[] = days.map((d) => ({
    x: d.date,
    xLabel: formatDay(d.date),
    values: {
      completed: d.completed,
      running: d.running,
      pending: d.pending,
      failed: d.failed,
      expired: d.expired,
    },
  }));
  const sum = (k: (typeof keys)[number]) => days.reduce((n, d) => n + d[k], 0);
  const total = keys.reduce((n, k) => n + sum(k), 0);
  return (
    <BarChart
      title={t('charts.runs.title')}
      summary={t('charts.runs.summary', {
        total: formatNumber(total),
        completed: formatNumber(sum('completed')),
        failed: formatNumber(sum('failed')),
        expired: formatNumber(sum('expired')),
        days: days.length,
      })}
      xAxisLabel={t('charts.day')}
      yAxisLabel={t('charts.runs.yAxis')}
      series={series}
      points={points}
      mode="stacked"
    />
  );
}

export function CreditsChart({ days }: { days: TAdminStats['creditsPerDay'] }) {
  const { t } = useTranslation('admin');
  const series: ChartSeries[] = [
    { key: 'granted', label: t('charts.credits.granted'), color: CREDIT_COLOURS.granted },
    { key: 'spent', label: t('charts.credits.spent'), color: CREDIT_COLOURS.spent },
  ];
  const points: ChartPoint[] = days.map((d) => ({
    x: d.date,
    xLabel: formatDay(d.date),
    values: { granted: d.granted, spent: d.spent },
  }));
  return (
    <BarChart
      title={t('charts.credits.title')}
      summary={t('charts.credits.summary', {
        granted: formatNumber(days.reduce((n, d) => n + d.granted, 0)),
        spent: formatNumber(days.reduce((n, d) => n + d.spent, 0)),
        days: days.length,
      })}
      xAxisLabel={t('charts.day')}
      yAxisLabel={t('charts.credits.yAxis')}
      series={series}
      points={points}
      mode="grouped"
    />
  );
}
