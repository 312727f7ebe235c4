import { z } from 'zod';
import { ZBilingual } from './common.js';
import { ZTransactionType } from './credits.js';
import { ZExecutionStatus, ZRunOrigin } from './executions.js';

/*
 * The admin's insights (GET /api/admin/insights) and CSV exports (GET /api/admin/exports/{runs,ledger}).
 * Days are UTC days, as on the dashboard. Dates in queries are YYYY-MM-DD; `to` is the last day included.
 */

/** The longest range insights and exports accept: a year and a day (a leap year with both ends). */
export const MAX_RANGE_DAYS = 366;
/** Per-workflow rows in an insights answer (the busiest first); `workflowsTotal` says how many there were. */
export const INSIGHTS_MAX_WORKFLOWS = 200;

export const INSIGHTS_PERIODS = ['day', 'week', 'month', 'custom'] as const;
export type TInsightsPeriod = (typeof INSIGHTS_PERIODS)[number];

/** A calendar date, checked to exist (no 2026-02-30). */
const ZDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Expected a date as YYYY-MM-DD' })
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: 'No such date',
    },
  );

const blankToUndefined = (v: unknown) => (v === '' || v === 'all' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

/**
 * `period` picks the range: the UTC day, ISO week (Monday to Sunday) or calendar month that holds `date`
 * (default today), or `from`..`to` for `custom`. `workflowId` narrows runs and credits to one workflow
 * (purchases belong to no workflow and are then left out).
 */
export const ZInsightsQuery = z.object({
  period: z.enum(INSIGHTS_PERIODS).default('month'),
  date: optional(ZDay),
  from: optional(ZDay),
  to: optional(ZDay),
  workflowId: optional(z.uuid()),
});

/** What a chart bar is: an hour for a day, a day up to two months, a week beyond. */
export const INSIGHTS_BUCKETS = ['hour', 'day', 'week'] as const;

const ZFigures = z.object({
  /** Runs started in the range, test runs left out. */
  runs: z.number().int(),
  /** Distinct people who started them. */
  customers: z.number().int(),
  /** Credits the ledger took for runs (usage rows), as a positive number. */
  creditsCharged: z.number().int(),
  /** Credits given back for failed or expired runs (refund rows). */
  creditsRefunded: z.number().int(),
  /** Charged minus refunded. */
  netCredits: z.number().int(),
});

const ZPurchaseFigures = z.object({
  purchases: z.number().int(),
  /** Credits the purchases granted (bonuses aside). */
  credits: z.number().int(),
  /** Dollars paid, as a decimal string (exact cents). */
  usd: z.string(),
});

export const ZInsights = z.object({
  period: z.enum(INSIGHTS_PERIODS),
  /** First and last day of the range (UTC, inclusive). */
  from: z.string(),
  to: z.string(),
  bucket: z.enum(INSIGHTS_BUCKETS),
  workflowId: z.uuid().nullable(),
  totals: ZFigures.extend({ purchases: ZPurchaseFigures }),
  /** One entry per bucket, oldest first, zero-filled; `start` is YYYY-MM-DD or YYYY-MM-DDTHH (UTC). */
  series: z.array(
    ZFigures.extend({ start: z.string(), purchaseCredits: z.number().int(), purchaseUsd: z.string() }),
  ),
  /** Busiest first. `workflow` is null for ledger rows of workflows deleted since. */
  workflows: z.array(ZFigures.extend({ workflow: z.object({ id: z.uuid(), name: ZBilingual }).nullable() })),
  workflowsTotal: z.number().int(),
  /** By plan, most dollars first; empty when `workflowId` is set. */
  purchasesByPlan: z.array(ZPurchaseFigures.extend({ planName: z.string().nullable() })),
});
export type TInsights = z.infer<typeof ZInsights>;

/** A date range for an export: both days included, at most MAX_RANGE_DAYS. */
const ZRange = z.object({ from: ZDay, to: ZDay });

/** Runs as CSV: the admin run list's filters (`q` workflow name or user, `status`, `origin`) over a range. */
export const ZRunsExportQuery = ZRange.extend({
  q: optional(z.string().trim().max(200)),
  status: optional(ZExecutionStatus),
  origin: optional(ZRunOrigin),
  workflowId: optional(z.uuid()),
});
export type TRunsExportQuery = z.output<typeof ZRunsExportQuery>;

/** Ledger rows as CSV: the admin ledger list's filters (`q` user, `type`) over a range. */
export const ZLedgerExportQuery = ZRange.extend({
  q: optional(z.string().trim().max(200)),
  type: optional(ZTransactionType),
  workflowId: optional(z.uuid()),
});
export type TLedgerExportQuery = z.output<typeof ZLedgerExportQuery>;
