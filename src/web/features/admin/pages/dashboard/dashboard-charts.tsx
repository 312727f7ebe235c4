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

type Day<K extends string> = { date: string } & Record<K, number>;

/** The sum of one count over the days. */
const total = <K extends string>(days: Array<Day<K>>, key: K) => days.reduce((n, d) => n + d[key], 0);

/**
 * A bar chart of some counts a day (one series for each), titled and labelled by `charts.<chart>` (admin).
 */
function DailyChart<K extends string>({
  chart,
  days,
  series,
  summary,
  mode,
}: {
  chart: 'runs' | 'credits';
  days: Array<Day<K>>;
  series: Array<ChartSeries & { key: K }>;
  summary: string;
  mode: 'stacked' | 'grouped';
}) {
  const { t } = useTranslation('admin');
  const points: ChartPoint[] = days.map((d) => ({
    x: d.date,
    xLabel: formatDay(d.date),
    values: Object.fromEntries(series.map((s) => [s.key, d[s.key]])),
  }));
  return (
    <BarChart
      title={t(`charts.${chart}.title`)}
      summary={summary}
      xAxisLabel={t('charts.day')}
      yAxisLabel={t(`charts.${chart}.yAxis`)}
      series={series}
      points={points}
      mode={mode}
    />
  );
}

const RUN_KEYS = ['completed', 'running', 'pending', 'failed', 'expired'] as const;

export function RunsChart({ days }: { days: TAdminStats['runsPerDay'] }) {
  const { t } = useTranslation('admin');
  const sum = (k: (typeof RUN_KEYS)[number]) => total(days, k);
  return (
    <DailyChart
      chart="runs"
      days={days}
      series={RUN_KEYS.map((k) => ({
        key: k,
        label: t(`runStatus.${k}`, { ns: 'common' }),
        color: RUN_COLOURS[k],
      }))}
      summary={t('charts.runs.summary', {
        total: formatNumber(RUN_KEYS.reduce((n, k) => n + sum(k), 0)),
        completed: formatNumber(sum('completed')),
        failed: formatNumber(sum('failed')),
        expired: formatNumber(sum('expired')),
        days: days.length,
      })}
      mode="stacked"
    />
  );
}

export function CreditsChart({ days }: { days: TAdminStats['creditsPerDay'] }) {
  const { t } = useTranslation('admin');
  return (
    <DailyChart
      chart="credits"
      days={days}
      series={[
        { key: 'granted', label: t('charts.credits.granted'), color: CREDIT_COLOURS.granted },
        { key: 'spent', label: t('charts.credits.spent'), color: CREDIT_COLOURS.spent },
      ]}
      summary={t('charts.credits.summary', {
        granted: formatNumber(total(days, 'granted')),
        spent: formatNumber(total(days, 'spent')),
        days: days.length,
      })}
      mode="grouped"
    />
  );
}
