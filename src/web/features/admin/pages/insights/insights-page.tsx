import { Download } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { pickLanguage } from '#shared/contract/common';
import { ADMIN_TRANSACTION_TYPES } from '#shared/contract/admin';
import { EXECUTION_STATUSES, RUN_ORIGINS } from '#shared/contract/executions';
import { INSIGHTS_PERIODS, type TInsights, type TInsightsPeriod } from '#shared/contract/insights';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Input, Label } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { formatDay, formatNumber } from '#web/lib/format';
import { exportUrl, useAdminInsights } from '#web/features/admin/api/get-insights';
import { useAdminWorkflows } from '#web/features/admin/api/lists';
import { BarChart, type ChartPoint } from '#web/features/admin/components/bar-chart';
import { Loaded } from '#web/features/admin/components/loaded';
import { PageHeader } from '#web/features/admin/components/page-header';

const today = () => new Date().toISOString().slice(0, 10);
const isPeriod = (v: string | null): v is TInsightsPeriod => INSIGHTS_PERIODS.includes(v as TInsightsPeriod);

// Colours keep at least 3:1 against white and match the dashboard's: runs green, customers blue, charged
// amber, refunded indigo. The legend and the data table say the same without colour.
const COLOURS = { runs: '#15803d', customers: '#0369a1', charged: '#b45309', refunded: '#4f46e5' } as const;

/** The period, its day(s) and the filters, kept in the address so a reload or a shared link shows the same. */
function useInsightsParams() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('period');
  const period: TInsightsPeriod = isPeriod(raw) ? raw : 'month';
  const get = (key: string) => params.get(key) ?? '';
  const set = (changes: Record<string, string>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        return next;
      },
      { replace: true },
    );
  return {
    period,
    date: get('date') || today(),
    from: get('from'),
    to: get('to'),
    workflowId: get('workflow'),
    set,
  };
}

export default function InsightsPage() {
  const { t } = useTranslation('insights');
  const p = useInsightsParams();
  const custom = p.period === 'custom';
  const ready = !custom || (p.from !== '' && p.to !== '');
  const insights = useAdminInsights(
    {
      period: p.period,
      ...(custom ? { from: p.from, to: p.to } : { date: p.date }),
      ...(p.workflowId ? { workflowId: p.workflowId } : {}),
    },
    ready,
  );

  return (
    <div>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Controls p={p} />
      {ready ? (
        <Loaded query={insights} errorClassName="mt-6">
          {(data) => (data ? <Figures data={data} /> : null)}
        </Loaded>
      ) : (
        <p className="mt-6 text-sm text-slate-700">{t('pickRange')}</p>
      )}
      {insights.data ? <Exports range={insights.data} workflowId={p.workflowId} /> : null}
    </div>
  );
}

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="min-w-0">
      <Label htmlFor={id}>{label}</Label>
      {children(id)}
    </div>
  );
}

function Controls({ p }: { p: ReturnType<typeof useInsightsParams> }) {
  const { t, i18n } = useTranslation('insights');
  const workflows = useAdminWorkflows({ limit: 500 });
  return (
    <Card className="grid gap-4 p-4 sm:grid-cols-2 lg:grid-cols-4">
      <Field label={t('period.label')}>
        {(id) => (
          <Select id={id} value={p.period} onChange={(e) => p.set({ period: e.target.value })}>
            {INSIGHTS_PERIODS.map((period) => (
              <option key={period} value={period}>
                {t(`period.${period}`)}
              </option>
            ))}
          </Select>
        )}
      </Field>
      {p.period === 'custom' ? (
        <>
          <Field label={t('from')}>
            {(id) => (
              <Input id={id} type="date" value={p.from} onChange={(e) => p.set({ from: e.target.value })} />
            )}
          </Field>
          <Field label={t('to')}>
            {(id) => (
              <Input id={id} type="date" value={p.to} onChange={(e) => p.set({ to: e.target.value })} />
            )}
          </Field>
        </>
      ) : (
        <Field label={t(`dateOf.${p.period}`)}>
          {(id) => (
            <Input
              id={id}
              type="date"
              required
              value={p.date}
              onChange={(e) => p.set({ date: e.target.value })}
            />
          )}
        </Field>
      )}
      <Field label={t('workflow')}>
        {(id) => (
          <Select id={id} value={p.workflowId} onChange={(e) => p.set({ workflow: e.target.value })}>
            <option value="">{t('allWorkflows')}</option>
            {(workflows.data?.items ?? []).map((w) => (
              <option key={w.id} value={w.id}>
                {pickLanguage(w.name, i18n.language)}
              </option>
            ))}
          </Select>
        )}
      </Field>
    </Card>
  );
}

function Total({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <Card className="p-4">
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <p className="mt-1 text-2xl font-bold tabular-nums text-slate-900">{value}</p>
      {detail ? <p className="mt-0.5 text-sm tabular-nums text-slate-700">{detail}</p> : null}
    </Card>
  );
}

/** A day with its year ("28 nov 2026"), as the range is named above the figures. */
const longDay = (day: string, language: string) =>
  new Intl.DateTimeFormat(language === 'es' ? 'es-ES' : 'en-US', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));

const usd = (value: string, language: string) =>
  new Intl.NumberFormat(language === 'es' ? 'es-ES' : 'en-US', { style: 'currency', currency: 'USD' }).format(
    Number(value),
  );

function Figures({ data }: { data: TInsights }) {
  const { t, i18n } = useTranslation('insights');
  const n = (v: number) => formatNumber(v, i18n.language);
  const { totals } = data;
  const xLabel = (start: string) =>
    data.bucket === 'hour' ? `${start.slice(11, 13)}:00` : formatDay(start, i18n.language);
  const points = (pick: (s: TInsights['series'][number]) => Record<string, number>): ChartPoint[] =>
    data.series.map((s) => ({ x: s.start, xLabel: xLabel(s.start), values: pick(s) }));
  const axis = t(`bucket.${data.bucket}`);

  return (
    <div className="mt-6 space-y-6">
      <p className="text-sm text-slate-700" aria-live="polite">
        {data.from === data.to
          ? t('range.one', { day: longDay(data.from, i18n.language) })
          : t('range.many', {
              from: longDay(data.from, i18n.language),
              to: longDay(data.to, i18n.language),
            })}{' '}
        {t('utc')}
      </p>
      <section aria-label={t('totals')} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <Total label={t('figures.runs')} value={n(totals.runs)} />
        <Total label={t('figures.customers')} value={n(totals.customers)} />
        <Total label={t('figures.netCredits')} value={n(totals.netCredits)} />
        <Total label={t('figures.creditsCharged')} value={n(totals.creditsCharged)} />
        <Total label={t('figures.creditsRefunded')} value={n(totals.creditsRefunded)} />
        <Total
          label={t('figures.purchases')}
          value={usd(totals.purchases.usd, i18n.language)}
          detail={t('purchaseDetail', {
            count: totals.purchases.purchases,
            purchases: n(totals.purchases.purchases),
            credits: n(totals.purchases.credits),
          })}
        />
      </section>
      <div className="grid gap-6 xl:grid-cols-2">
        <Card className="min-w-0 p-5">
          <BarChart
            title={t('charts.runs')}
            summary={t('charts.runsSummary', { runs: n(totals.runs), customers: n(totals.customers) })}
            xAxisLabel={axis}
            yAxisLabel={t('charts.count')}
            mode="grouped"
            series={[
              { key: 'runs', label: t('figures.runs'), color: COLOURS.runs },
              { key: 'customers', label: t('figures.customers'), color: COLOURS.customers },
            ]}
            points={points((s) => ({ runs: s.runs, customers: s.customers }))}
          />
        </Card>
        <Card className="min-w-0 p-5">
          <BarChart
            title={t('charts.credits')}
            summary={t('charts.creditsSummary', {
              charged: n(totals.creditsCharged),
              refunded: n(totals.creditsRefunded),
              net: n(totals.netCredits),
            })}
            xAxisLabel={axis}
            yAxisLabel={t('charts.credits')}
            mode="grouped"
            series={[
              { key: 'charged', label: t('figures.creditsCharged'), color: COLOURS.charged },
              { key: 'refunded', label: t('figures.creditsRefunded'), color: COLOURS.refunded },
            ]}
            points={points((s) => ({ charged: s.creditsCharged, refunded: s.creditsRefunded }))}
          />
        </Card>
      </div>
      <WorkflowTable data={data} />
      {data.workflowId ? (
        <p className="text-sm text-slate-700">{t('purchasesAccountWide')}</p>
      ) : (
        <PlanTable data={data} />
      )}
    </div>
  );
}

function Table({ caption, headers, children }: { caption: string; headers: string[]; children: ReactNode }) {
  return (
    <Card className="min-w-0 p-5">
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
        <table className="w-full text-left text-sm">
          <caption className="mb-3 text-left text-base font-semibold text-slate-900">{caption}</caption>
          <thead className="border-b border-slate-200 text-slate-700">
            <tr>
              {headers.map((h, i) => (
                <th key={h} scope="col" className={i === 0 ? 'py-2 pr-3' : 'px-3 py-2 text-right'}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 tabular-nums text-slate-900">{children}</tbody>
        </table>
      </div>
    </Card>
  );
}

function WorkflowTable({ data }: { data: TInsights }) {
  const { t, i18n } = useTranslation('insights');
  const n = (v: number) => formatNumber(v, i18n.language);
  const caption =
    data.workflowsTotal > data.workflows.length
      ? t('perWorkflowSome', { shown: n(data.workflows.length), total: n(data.workflowsTotal) })
      : t('perWorkflow');
  if (data.workflows.length === 0) {
    return (
      <Card className="p-5">
        <h2 className="text-base font-semibold text-slate-900">{t('perWorkflow')}</h2>
        <p className="mt-2 text-sm text-slate-700">{t('nothing')}</p>
      </Card>
    );
  }
  return (
    <Table
      caption={caption}
      headers={[
        t('workflow'),
        t('figures.runs'),
        t('figures.customers'),
        t('figures.creditsCharged'),
        t('figures.creditsRefunded'),
        t('figures.netCredits'),
      ]}
    >
      {data.workflows.map((w) => (
        <tr key={w.workflow?.id ?? 'deleted'}>
          <th scope="row" className="py-2 pr-3 font-medium">
            {w.workflow ? pickLanguage(w.workflow.name, i18n.language) : t('deletedWorkflow')}
          </th>
          <td className="px-3 py-2 text-right">{n(w.runs)}</td>
          <td className="px-3 py-2 text-right">{n(w.customers)}</td>
          <td className="px-3 py-2 text-right">{n(w.creditsCharged)}</td>
          <td className="px-3 py-2 text-right">{n(w.creditsRefunded)}</td>
          <td className="px-3 py-2 text-right font-semibold">{n(w.netCredits)}</td>
        </tr>
      ))}
    </Table>
  );
}

function PlanTable({ data }: { data: TInsights }) {
  const { t, i18n } = useTranslation('insights');
  const n = (v: number) => formatNumber(v, i18n.language);
  if (data.purchasesByPlan.length === 0) {
    return (
      <Card className="p-5">
        <h2 className="text-base font-semibold text-slate-900">{t('byPlan')}</h2>
        <p className="mt-2 text-sm text-slate-700">{t('noPurchases')}</p>
      </Card>
    );
  }
  return (
    <Table
      caption={t('byPlan')}
      headers={[t('plan'), t('figures.purchaseCount'), t('figures.credits'), t('figures.usd')]}
    >
      {data.purchasesByPlan.map((plan) => (
        <tr key={plan.planName ?? 'none'}>
          <th scope="row" className="py-2 pr-3 font-medium">
            {plan.planName ?? t('noPlan')}
          </th>
          <td className="px-3 py-2 text-right">{n(plan.purchases)}</td>
          <td className="px-3 py-2 text-right">{n(plan.credits)}</td>
          <td className="px-3 py-2 text-right font-semibold">{usd(plan.usd, i18n.language)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** Downloads of the shown range as CSV, with the run list's and the ledger list's filters. */
function Exports({ range, workflowId }: { range: TInsights; workflowId: string }) {
  const { t } = useTranslation('insights');
  const tc = useTranslation('common').t;
  const ta = useTranslation('admin').t;
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const status = params.get('status') ?? '';
  const origin = params.get('origin') ?? '';
  const type = params.get('type') ?? '';
  const set = (key: string, value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  const base = {
    from: range.from,
    to: range.to,
    workflowId: workflowId || undefined,
    q: q.trim() || undefined,
  };
  return (
    <Card className="mt-6 p-5">
      <h2 className="text-base font-semibold text-slate-900">{t('exports.title')}</h2>
      <p className="mt-1 text-sm text-slate-700">
        {t('exports.subtitle', { from: range.from, to: range.to })}
      </p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field label={t('exports.search')}>
          {(id) => (
            <Input
              id={id}
              type="search"
              value={q}
              maxLength={200}
              onChange={(e) => set('q', e.target.value)}
            />
          )}
        </Field>
        <Field label={t('exports.status')}>
          {(id) => (
            <Select id={id} value={status} onChange={(e) => set('status', e.target.value)}>
              <option value="">{t('exports.any')}</option>
              {EXECUTION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {tc(`runStatus.${s}`)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label={t('exports.origin')}>
          {(id) => (
            <Select id={id} value={origin} onChange={(e) => set('origin', e.target.value)}>
              <option value="">{t('exports.any')}</option>
              {RUN_ORIGINS.map((o) => (
                <option key={o} value={o}>
                  {tc(`runOrigin.${o}`)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label={t('exports.type')}>
          {(id) => (
            <Select id={id} value={type} onChange={(e) => set('type', e.target.value)}>
              <option value="">{t('exports.any')}</option>
              {ADMIN_TRANSACTION_TYPES.map((ty) => (
                <option key={ty} value={ty}>
                  {ta(`transactionTypes.${ty}`)}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button asChild variant="secondary">
          <a
            href={exportUrl('runs', { ...base, status: status || undefined, origin: origin || undefined })}
            download
          >
            <Download className="size-4" aria-hidden="true" />
            {t('exports.runs')}
          </a>
        </Button>
        <Button asChild variant="secondary">
          <a href={exportUrl('ledger', { ...base, type: type || undefined })} download>
            <Download className="size-4" aria-hidden="true" />
            {t('exports.ledger')}
          </a>
        </Button>
      </div>
      <p className="mt-3 text-xs text-slate-700">{t('exports.note')}</p>
    </Card>
  );
}
