import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
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
} from '../../../shared/contract/admin.js';
import type { Db } from '../../db/client.js';
import {
  adminAuditLogs,
  creditTransactions,
  userProfiles,
  userWorkflows,
  workflowExecutions,
} from '../../db/schema.js';
import {
  escapeLike,
  userIdsByEmailPrefix,
  userMatches,
  workflowIdsByName,
  workflowTextContains,
} from './search.js';

export interface Page<T> {
  rows: T[];
  /** Rows matching the filters, all pages together. */
  total: number;
}

export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);

async function countWhere(db: Db, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(where);
  return row?.n ?? 0;
}

// Users ------------------------------------------------------------------------------------------------------

export async function listUsers(
  db: Db,
  query: z.output<typeof ZAdminUserListQuery>,
): Promise<Page<TAdminUser>> {
  const where = and(
    query.q ? userMatches(query.q) : undefined,
    query.status ? eq(userProfiles.accountStatus, query.status) : undefined,
    query.role ? eq(userProfiles.isAdmin, query.role === 'admin') : undefined,
  );
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(userProfiles)
      .where(where)
      .orderBy(desc(userProfiles.createdAt), desc(userProfiles.id))
      .limit(query.limit)
      .offset(query.offset),
    countWhere(db, userProfiles, where),
  ]);
  return { rows: rows.map(toAdminUser), total };
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
  };
}

// Workflows --------------------------------------------------------------------------------------------------

const ownerColumns = { id: userProfiles.id, email: userProfiles.email, fullName: userProfiles.fullName };

export async function listWorkflows(
  db: Db,
  query: z.output<typeof ZAdminWorkflowListQuery>,
): Promise<Page<TAdminWorkflow>> {
  const category = query.category?.toLowerCase();
  const where = and(
    query.q ? workflowTextContains(query.q, true) : undefined,
    category
      ? sql`(lower(${userWorkflows.category}->>'en') = ${category} or lower(${userWorkflows.category}->>'es') = ${category})`
      : undefined,
    query.status ? eq(userWorkflows.isActive, query.status === 'active') : undefined,
    query.visibility ? eq(userWorkflows.isPublic, query.visibility === 'public') : undefined,
  );
  const [rows, total] = await Promise.all([
    db
      .select({ workflow: userWorkflows, owner: ownerColumns })
      .from(userWorkflows)
      .leftJoin(userProfiles, eq(userProfiles.id, userWorkflows.userId))
      .where(where)
      .orderBy(desc(userWorkflows.createdAt), desc(userWorkflows.id))
      .limit(query.limit)
      .offset(query.offset),
    countWhere(db, userWorkflows, where),
  ]);
  return { rows: rows.map((r) => toAdminWorkflow(r.workflow, r.owner)), total };
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
    createdAt: iso(w.createdAt),
    updatedAt: iso(w.updatedAt),
  };
}

// Executions -------------------------------------------------------------------------------------------------

export async function listExecutions(
  db: Db,
  query: z.output<typeof ZAdminExecutionListQuery>,
): Promise<Page<TAdminExecution>> {
  const where = and(
    query.q
      ? sql`(${workflowExecutions.workflowId} in ${workflowIdsByName(query.q)} or ${workflowExecutions.userId} in ${userIdsByEmailPrefix(query.q)})`
      : undefined,
    query.status ? eq(workflowExecutions.status, query.status) : undefined,
  );
  const [rows, total] = await Promise.all([
    db
      .select({
        run: {
          id: workflowExecutions.id,
          status: workflowExecutions.status,
          outputType: workflowExecutions.outputType,
          outputFilename: workflowExecutions.outputFilename,
          creditsUsed: workflowExecutions.creditsUsed,
          errorMessage: workflowExecutions.errorMessage,
          createdAt: workflowExecutions.createdAt,
          completedAt: workflowExecutions.completedAt,
        },
        workflow: { id: userWorkflows.id, name: userWorkflows.name },
        user: { id: userProfiles.id, email: userProfiles.email },
      })
      .from(workflowExecutions)
      .leftJoin(userWorkflows, eq(userWorkflows.id, workflowExecutions.workflowId))
      .leftJoin(userProfiles, eq(userProfiles.id, workflowExecutions.userId))
      .where(where)
      .orderBy(desc(workflowExecutions.createdAt), desc(workflowExecutions.id))
      .limit(query.limit)
      .offset(query.offset),
    countWhere(db, workflowExecutions, where),
  ]);
  return {
    rows: rows.map(({ run, workflow, user }) => ({
      ...run,
      workflow,
      user,
      createdAt: iso(run.createdAt),
      completedAt: isoOrNull(run.completedAt),
    })),
    total,
  };
}

// Credits ----------------------------------------------------------------------------------------------------

export async function listCreditTransactions(
  db: Db,
  query: z.output<typeof ZAdminCreditListQuery>,
): Promise<Page<TAdminCreditTransaction>> {
  const where = and(
    query.q ? sql`${creditTransactions.userId} in ${userIdsByEmailPrefix(query.q)}` : undefined,
    query.type ? eq(creditTransactions.transactionType, query.type) : undefined,
  );
  const [rows, total] = await Promise.all([
    db
      .select({
        entry: {
          id: creditTransactions.id,
          transactionType: creditTransactions.transactionType,
          amount: creditTransactions.amount,
          notes: creditTransactions.notes,
          usdAmount: creditTransactions.usdAmount,
          planName: creditTransactions.planName,
          createdAt: creditTransactions.createdAt,
        },
        user: { id: userProfiles.id, email: userProfiles.email },
        workflow: { id: userWorkflows.id, name: userWorkflows.name },
      })
      .from(creditTransactions)
      .leftJoin(userProfiles, eq(userProfiles.id, creditTransactions.userId))
      .leftJoin(userWorkflows, eq(userWorkflows.id, creditTransactions.workflowId))
      .where(where)
      .orderBy(desc(creditTransactions.createdAt), desc(creditTransactions.id))
      .limit(query.limit)
      .offset(query.offset),
    countWhere(db, creditTransactions, where),
  ]);
  return {
    rows: rows.map(({ entry, user, workflow }) => ({
      ...entry,
      user,
      workflow,
      createdAt: iso(entry.createdAt),
    })),
    total,
  };
}

// Audit ------------------------------------------------------------------------------------------------------

export async function listAudit(
  db: Db,
  query: z.output<typeof ZAdminAuditListQuery>,
): Promise<Page<TAdminAuditEntry>> {
  const where = and(
    query.q
      ? sql`(${adminAuditLogs.adminUserId} in ${userIdsByEmailPrefix(query.q)} or ${adminAuditLogs.actionType} like ${`${escapeLike(query.q.trim().toLowerCase())}%`})`
      : undefined,
    query.action ? eq(adminAuditLogs.actionType, query.action) : undefined,
  );
  const [rows, total] = await Promise.all([
    db
      .select({ entry: adminAuditLogs, admin: { id: userProfiles.id, email: userProfiles.email } })
      .from(adminAuditLogs)
      .leftJoin(userProfiles, eq(userProfiles.id, adminAuditLogs.adminUserId))
      .where(where)
      .orderBy(desc(adminAuditLogs.createdAt), desc(adminAuditLogs.id))
      .limit(query.limit)
      .offset(query.offset),
    countWhere(db, adminAuditLogs, where),
  ]);
  return {
    rows: rows.map(({ entry, admin }) => ({
      id: entry.id,
      admin,
      actionType: entry.actionType,
      targetType: entry.targetType,
      targetId: entry.targetId,
      details: entry.details,
      createdAt: iso(entry.createdAt),
    })),
    total,
  };
}
