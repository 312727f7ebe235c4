import { and, eq, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type {
  TAdminAuditEntry,
  TAdminCreditTransaction,
  TAdminExecution,
  TAdminUser,
  TAdminWorkflow,
  ZAdminAuditListQuery,
  ZAdminCreditListQuery,
  ZAdminExecutionListQuery,
  ZAdminUserListQuery,
  ZAdminWorkflowListQuery,
} from '#shared/contract/admin.js';
import type { TTransactionType } from '#shared/contract/credits.js';
import type { TExecutionStatus, TRunOrigin } from '#shared/contract/executions.js';
import { ledgerNoteText } from '#shared/i18n/ledger-notes.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { userRefColumns, workflowRefColumns } from '#server/db/refs.js';
import { newestFirst, queryRows, readPage } from '#server/db/sql-helpers.js';
import { iso, isoOrNull } from '#server/lib/dates.js';
import {
  adminAuditLogs,
  creditTransactions,
  userProfiles,
  userWorkflows,
  workflowExecutions,
} from '#server/db/schema.js';
import {
  auditActionContains,
  userIdMatches,
  userMatches,
  workflowIdMatches,
  workflowTextContains,
} from './search.js';
import { tallyRuns } from '../executions/service.js';
import { foldHealthNotes, monthlyHealthOf, monthlySuccessRates } from '../operations/service.js';

export interface Page<T> extends Total {
  rows: T[];
}

/**
 * Newest first for a searched list: the same order written so that no index can serve it. A name search's
 * selectivity is unknown to the planner (it guesses 2%), and walking the newest-first index while testing
 * each row is a full scan when few match; fetching the matches through the search indexes and sorting them
 * is fast in both cases.
 */
const newestFirstOfMatches = (column: AnyPgColumn): SQL => sql`${column} desc nulls first`;

/** Above this many matching rows the total is the planner's estimate: counting millions exactly is slow. */
const EXACT_COUNT_LIMIT = 10_000;

interface Total {
  total: number;
  /** True when the total is an estimate (more than EXACT_COUNT_LIMIT rows match). */
  estimated: boolean;
}

/** Exact count up to `limit` rows (an index walk that stops early); beyond it, the planner's estimate. */
async function countMatching(
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
  limit = EXACT_COUNT_LIMIT,
): Promise<Total> {
  const filter = where ? sql` where ${where}` : sql``;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from ${table}${filter} limit ${limit + 1}) as capped`,
  );
  const exact = Number(row?.n ?? 0);
  if (exact <= limit) return { total: exact, estimated: false };
  const [plan] = await queryRows<{ 'QUERY PLAN': unknown }>(
    db,
    sql`explain (format json) select 1 from ${table}${filter}`,
  );
  return { total: Math.max(limit + 1, plannedRows(plan?.['QUERY PLAN'])), estimated: true };
}

function plannedRows(plan: unknown): number {
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{
    Plan?: { 'Plan Rows'?: number };
  }>;
  return Math.round(Number(parsed[0]?.Plan?.['Plan Rows'] ?? 0));
}

/** One page of an admin list and its total, counted as admin lists are (see countMatching). */
export async function readAdminPage<Q extends PgSelect>(
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
  order: SQL,
  page: { limit: number; offset: number },
  select: Q,
): Promise<Page<Awaited<Q>[number]>> {
  return readPage(db, table, where, [order], page, select, countMatching);
}

// Users ------------------------------------------------------------------------------------------------------

export async function listUsers(
  db: Db,
  query: z.output<typeof ZAdminUserListQuery>,
): Promise<Page<TAdminUser>> {
  const { status } = query;
  const where = and(
    query.q ? userMatches(query.q) : undefined,
    // Deleted accounts only when asked for (each side has its own index, migration 0022).
    status === 'deleted' ? isNotNull(userProfiles.deletedAt) : isNull(userProfiles.deletedAt),
    status === 'active' || status === 'suspended' ? eq(userProfiles.accountStatus, status) : undefined,
    query.role ? eq(userProfiles.isAdmin, query.role === 'admin') : undefined,
  );
  const order = query.q ? newestFirstOfMatches(userProfiles.createdAt) : newestFirst(userProfiles.createdAt);
  const page = await readAdminPage(
    db,
    userProfiles,
    where,
    order,
    query,
    db.select().from(userProfiles).$dynamic(),
  );
  return { ...page, rows: page.rows.map(toAdminUser) };
}

export function toAdminUser(p: typeof userProfiles.$inferSelect): TAdminUser {
  return {
    id: p.id,
    email: p.email,
    fullName: p.fullName,
    isAdmin: p.isAdmin,
    accountStatus: p.accountStatus,
    credits: p.credits,
    lastLoginAt: isoOrNull(p.lastLoginAt),
    createdAt: iso(p.createdAt),
    deletedAt: isoOrNull(p.deletedAt),
  };
}

// Workflows --------------------------------------------------------------------------------------------------

/** A workflow's owner as the admin's workflow rows show them. */
export const ownerColumns = {
  id: userProfiles.id,
  email: userProfiles.email,
  fullName: userProfiles.fullName,
};

export async function listWorkflows(
  db: Db,
  query: z.output<typeof ZAdminWorkflowListQuery>,
  now: Date,
): Promise<Page<TAdminWorkflow>> {
  const category = query.category?.toLowerCase();
  await tallyRuns(db);
  const where = and(
    query.q ? workflowTextContains(query.q, true) : undefined,
    category
      ? sql`(lower(${userWorkflows.category}->>'en') = ${category} or lower(${userWorkflows.category}->>'es') = ${category})`
      : undefined,
    query.status === 'archived' ? isNotNull(userWorkflows.archivedAt) : undefined,
    query.status === 'active' || query.status === 'inactive'
      ? and(eq(userWorkflows.isActive, query.status === 'active'), isNull(userWorkflows.archivedAt))
      : undefined,
    query.visibility ? eq(userWorkflows.isPublic, query.visibility === 'public') : undefined,
  );
  await foldHealthNotes(db);
  const byHealth = query.sort === 'health';
  const rates = sql`health_rates`;
  const order = byHealth
    ? sql`${rates}.rate asc nulls last, ${userWorkflows.createdAt} desc`
    : newestFirst(userWorkflows.createdAt);
  const select = db
    .select({ workflow: userWorkflows, owner: ownerColumns })
    .from(userWorkflows)
    .leftJoin(userProfiles, eq(userProfiles.id, userWorkflows.userId))
    .$dynamic();
  const page = await readAdminPage(
    db,
    userWorkflows,
    where,
    order,
    query,
    byHealth
      ? select.leftJoin(
          sql`${monthlySuccessRates(now)} as ${rates}`,
          sql`${rates}.workflow_id = ${userWorkflows.id}`,
        )
      : select,
  );
  const health = await monthlyHealthOf(
    db,
    page.rows.map((r) => r.workflow.id),
    now,
  );
  return {
    ...page,
    rows: page.rows.map((r) => ({
      ...toAdminWorkflow(r.workflow, r.owner),
      health: {
        finished: health.get(r.workflow.id)?.finished ?? 0,
        successRate: health.get(r.workflow.id)?.successRate ?? null,
      },
    })),
  };
}

export function toAdminWorkflow(
  w: typeof userWorkflows.$inferSelect,
  owner: { id: string; email: string; fullName: string | null } | null,
): TAdminWorkflow {
  return {
    id: w.id,
    name: w.name,
    description: w.description ?? null,
    category: w.category,
    owner,
    webhookUrl: w.webhookUrl,
    isPublic: w.isPublic,
    isActive: w.isActive,
    executionCount: w.executionCount,
    interactionType: w.interactionType,
    creditsPerExecution: w.creditsPerExecution,
    version: w.version,
    archivedAt: isoOrNull(w.archivedAt),
    pausedAt: isoOrNull(w.pausedAt),
    pausedReason: w.pausedReason,
    createdAt: iso(w.createdAt),
    updatedAt: iso(w.updatedAt),
  };
}

/** Runs (`run`'s columns) with the workflow and the user each refers to, as the admin's runs list and dashboard show them. */
export function selectRunsWithRefs<C extends Record<string, AnyPgColumn>>(db: DbOrTx, run: C) {
  return db
    .select({ run, workflow: workflowRefColumns, user: userRefColumns })
    .from(workflowExecutions)
    .leftJoin(userWorkflows, eq(userWorkflows.id, workflowExecutions.workflowId))
    .leftJoin(userProfiles, eq(userProfiles.id, workflowExecutions.userId));
}

// Executions -------------------------------------------------------------------------------------------------

/** The run list's filters (search, status, origin), which the runs export applies too. */
export async function runListFilter(
  db: Db,
  query: { q?: string | undefined; status?: TExecutionStatus | undefined; origin?: TRunOrigin | undefined },
): Promise<SQL | undefined> {
  return and(
    query.q
      ? or(
          await workflowIdMatches(db, workflowExecutions.workflowId, query.q),
          await userIdMatches(db, workflowExecutions.userId, query.q),
        )
      : undefined,
    query.status ? eq(workflowExecutions.status, query.status) : undefined,
    query.origin ? eq(workflowExecutions.origin, query.origin) : undefined,
  );
}

/** The ledger list's filters (search, type), which the ledger export applies too. */
export async function ledgerListFilter(
  db: Db,
  query: { q?: string | undefined; type?: TTransactionType | undefined },
): Promise<SQL | undefined> {
  return and(
    query.q ? await userIdMatches(db, creditTransactions.userId, query.q) : undefined,
    query.type ? eq(creditTransactions.transactionType, query.type) : undefined,
  );
}

export async function listExecutions(
  db: Db,
  query: z.output<typeof ZAdminExecutionListQuery>,
): Promise<Page<TAdminExecution>> {
  const where = await runListFilter(db, query);
  const page = await readAdminPage(
    db,
    workflowExecutions,
    where,
    query.q ? newestFirstOfMatches(workflowExecutions.createdAt) : newestFirst(workflowExecutions.createdAt),
    query,
    selectRunsWithRefs(db, {
      id: workflowExecutions.id,
      status: workflowExecutions.status,
      origin: workflowExecutions.origin,
      outputType: workflowExecutions.outputType,
      outputFilename: workflowExecutions.outputFilename,
      creditsUsed: workflowExecutions.creditsUsed,
      errorCode: workflowExecutions.errorCode,
      errorMessage: workflowExecutions.errorMessage,
      createdAt: workflowExecutions.createdAt,
      completedAt: workflowExecutions.completedAt,
    }).$dynamic(),
  );
  return {
    ...page,
    rows: page.rows.map(({ run, workflow, user }) => ({
      ...run,
      workflow,
      user,
      createdAt: iso(run.createdAt),
      completedAt: isoOrNull(run.completedAt),
    })),
  };
}

// Credits ----------------------------------------------------------------------------------------------------

export async function listCreditTransactions(
  db: Db,
  query: z.output<typeof ZAdminCreditListQuery>,
): Promise<Page<TAdminCreditTransaction>> {
  const where = await ledgerListFilter(db, query);
  const page = await readAdminPage(
    db,
    creditTransactions,
    where,
    newestFirst(creditTransactions.createdAt),
    query,
    db
      .select({
        entry: {
          id: creditTransactions.id,
          transactionType: creditTransactions.transactionType,
          amount: creditTransactions.amount,
          notes: creditTransactions.notes,
          noteKind: creditTransactions.noteKind,
          noteParams: creditTransactions.noteParams,
          usdAmount: creditTransactions.usdAmount,
          planName: creditTransactions.planName,
          createdAt: creditTransactions.createdAt,
        },
        user: userRefColumns,
        workflow: workflowRefColumns,
      })
      .from(creditTransactions)
      .leftJoin(userProfiles, eq(userProfiles.id, creditTransactions.userId))
      .leftJoin(userWorkflows, eq(userWorkflows.id, creditTransactions.workflowId))
      .$dynamic(),
  );
  return {
    ...page,
    rows: page.rows.map(({ entry, user, workflow }) => ({
      ...entry,
      notes: ledgerNoteText('en', { kind: entry.noteKind, params: entry.noteParams, notes: entry.notes }),
      user,
      workflow,
      createdAt: iso(entry.createdAt),
    })),
  };
}

// Audit ------------------------------------------------------------------------------------------------------

export async function listAudit(
  db: Db,
  query: z.output<typeof ZAdminAuditListQuery>,
): Promise<Page<TAdminAuditEntry>> {
  const where = and(
    query.q
      ? or(
          await userIdMatches(db, adminAuditLogs.adminUserId, query.q),
          auditActionContains(adminAuditLogs.actionType, query.q),
        )
      : undefined,
    query.action ? eq(adminAuditLogs.actionType, query.action) : undefined,
  );
  const page = await readAdminPage(
    db,
    adminAuditLogs,
    where,
    newestFirst(adminAuditLogs.createdAt),
    query,
    db
      .select({ entry: adminAuditLogs, admin: userRefColumns })
      .from(adminAuditLogs)
      .leftJoin(userProfiles, eq(userProfiles.id, adminAuditLogs.adminUserId))
      .$dynamic(),
  );
  return {
    ...page,
    rows: page.rows.map(({ entry, admin }) => ({
      id: entry.id,
      admin,
      actionType: entry.actionType,
      targetType: entry.targetType,
      targetId: entry.targetId,
      details: entry.details,
      createdAt: iso(entry.createdAt),
    })),
  };
}
