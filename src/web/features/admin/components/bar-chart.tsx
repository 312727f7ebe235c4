import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { axisTicks } from '../lib/chart-scale';
import { useElementWidth } from '../lib/use-element-width';

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
}

export interface ChartPoint {
  /** The category on the x axis (a day, YYYY-MM-DD). */
  x: string;
  /** Shown under the axis and in the data table. */
  xLabel: string;
  values: Record<string, number>;
}

interface BarChartProps {
  title: string;
  /** One sentence summarising the data, read out instead of the drawing. */
  summary: string;
  xAxisLabel: string;
  yAxisLabel: string;
  series: ChartSeries[];
  points: ChartPoint[];
  /** Stacked: one bar per day split by series. Grouped: bars side by side. */
  mode: 'stacked' | 'grouped';
}

const HEIGHT = 240;
const MARGIN = { top: 12, right: 12, bottom: 44, left: 52 };

/**
 * A bar chart drawn by hand as inline SVG: titled, with axis labels and a legend, described for screen
 * readers, and with the numbers behind it in a table a person can open.
 */
export function BarChart({ title, summary, xAxisLabel, yAxisLabel, series, points, mode }: BarChartProps) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const plotW = Math.max(120, width - MARGIN.left - MARGIN.right);
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const totals = points.map((p) =>
    mode === 'stacked'
      ? series.reduce((sum, s) => sum + (p.values[s.key] ?? 0), 0)
      : Math.max(0, ...series.map((s) => p.values[s.key] ?? 0)),
  );
  const ticks = axisTicks(Math.max(0, ...totals));
  const max = ticks[ticks.length - 1] ?? 1;
  const y = (v: number) => MARGIN.top + plotH - (v / max) * plotH;
  const slot = plotW / Math.max(1, points.length);
  const barW = Math.max(2, slot * 0.7);
  // Label as many days as fit without overlapping (about 56 px per label).
  const labelEvery = Math.max(1, Math.ceil(points.length / Math.max(1, Math.floor(plotW / 56))));

  return (
    <figure className="min-w-0">
      <figcaption id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {title}
      </figcaption>
      <ul
        className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700"
        aria-label={t('charts.legend')}
      >
        {series.map((s) => (
          <li key={s.key} className="inline-flex items-center gap-1.5">
            <span
              className="inline-block size-3 rounded-sm"
              style={{ backgroundColor: s.color }}
              aria-hidden="true"
            />
            {s.label}
          </li>
        ))}
      </ul>
      <div ref={ref} className="mt-2 w-full">
        <svg
          width={width}
          height={HEIGHT}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          className="block max-w-full overflow-visible"
        >
          <desc id={`${id}-desc`}>{summary}</desc>
          {ticks.map((tick) => (
            <g key={tick}>
              <line
                x1={MARGIN.left}
                x2={MARGIN.left + plotW}
                y1={y(tick)}
                y2={y(tick)}
                stroke={tick === 0 ? '#64748b' : '#e2e8f0'}
              />
              <text x={MARGIN.left - 8} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={11} fill="#475569">
                {tick}
              </text>
            </g>
          ))}
          {points.map((p, i) => {
            const x0 = MARGIN.left + i * slot + (slot - barW) / 2;
            if (mode === 'stacked') {
              let base = 0;
              return (
                <g key={p.x}>
                  {series.map((s) => {
                    const v = p.values[s.key] ?? 0;
                    if (v <= 0) return null;
                    const top = y(base + v);
                    const h = y(base) - top;
                    base += v;
                    return <rect key={s.key} x={x0} y={top} width={barW} height={h} fill={s.color} />;
                  })}
                </g>
              );
            }
            const each = barW / series.length;
            return (
              <g key={p.x}>
                {series.map((s, k) => {
                  const v = p.values[s.key] ?? 0;
                  if (v <= 0) return null;
                  return (
                    <rect
                      key={s.key}
                      x={x0 + k * each}
                      y={y(v)}
                      width={each}
                      height={y(0) - y(v)}
                      fill={s.color}
                    />
                  );
                })}
              </g>
            );
          })}
          {points.map((p, i) =>
            i % labelEvery === 0 ? (
              <text
                key={p.x}
                x={MARGIN.left + i * slot + slot / 2}
                y={MARGIN.top + plotH + 16}
                textAnchor="middle"
                fontSize={11}
                fill="#475569"
              >
                {p.xLabel}
              </text>
            ) : null,
          )}
          <text
            x={MARGIN.left + plotW / 2}
            y={HEIGHT - 6}
            textAnchor="middle"
            fontSize={12}
            fontWeight={600}
            fill="#334155"
          >
            {xAxisLabel}
          </text>
          <text
            transform={`translate(14 ${MARGIN.top + plotH / 2}) rotate(-90)`}
            textAnchor="middle"
            fontSize={12}
            fontWeight={600}
            fill="#334155"
          >
            {yAxisLabel}
          </text>
        </svg>
      </div>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer rounded font-medium text-brand-700 hover:underline">
          {t('charts.showData')}
        </summary>
        <div
          className="relative mt-2 max-h-64 overflow-auto rounded-lg border border-slate-200"
          tabIndex={0}
          role="region"
          aria-label={title}
        >
          <table className="w-full text-left text-xs">
            <caption className="sr-only">{title}</caption>
            <thead className="sticky top-0 bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2">
                  {xAxisLabel}
                </th>
                {series.map((s) => (
                  <th key={s.key} scope="col" className="px-3 py-2 text-right">
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {points.map((p) => (
                <tr key={p.x}>
                  <th scope="row" className="px-3 py-1.5 font-normal text-slate-800">
                    {p.xLabel}
                  </th>
                  {series.map((s) => (
                    <td key={s.key} className="px-3 py-1.5 text-right tabular-nums text-slate-800">
                      {p.values[s.key] ?? 0}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
