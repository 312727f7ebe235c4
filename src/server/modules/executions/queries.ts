import { and, eq, inArray } from 'drizzle-orm';
import type { TExecution } from '#shared/contract/executions.js';
import type { DbOrTx } from '#server/db/client.js';
import { userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { newestFirst } from '#server/db/sql-helpers.js';
import { notFound } from '#server/lib/errors.js';

export const OPEN_STATUSES = ['pending', 'running'] as const;
export const isOpen = (status: string) => status === 'pending' || status === 'running';

const executionColumns = {
  run: workflowExecutions,
  workflowName: userWorkflows.name,
};

type ExecutionRow = { run: typeof workflowExecutions.$inferSelect; workflowName: TExecution['workflowName'] };

export function toExecution({ run, workflowName }: ExecutionRow): TExecution {
  return {
    id: run.id,
    workflowId: run.workflowId,
    workflowName: workflowName ?? null,
    status: run.status,
    creditsUsed: run.creditsUsed,
    outputType: run.outputType,
    outputUrl: run.outputUrl,
    outputFilename: run.outputFilename,
    outputSize: run.outputSize,
    outputData: run.outputData ?? null,
    resultPath: run.resultPath,
    errorMessage: run.errorMessage,
    progressMessage: run.progressMessage,
    executionTimeMs: run.executionTimeMs,
    createdAt: run.createdAt.toISOString(),
    completedAt: run.completedAt?.toISOString() ?? null,
  };
}

/** A run as its owner sees it; someone else's run is "not found", so its existence is not revealed. */
export async function getOwnRun(db: DbOrTx, userId: string, runId: string): Promise<TExecution> {
  const [row] = await db
    .select(executionColumns)
    .from(workflowExecutions)
    .leftJoin(userWorkflows, eq(userWorkflows.id, workflowExecutions.workflowId))
    .where(and(eq(workflowExecutions.id, runId), eq(workflowExecutions.userId, userId)));
  if (!row) throw notFound('Execution');
  return toExecution(row);
}

/** The user's runs, newest first (bounded: the history screen shows the latest ones). */
export async function listOwnRuns(db: DbOrTx, userId: string, limit = 500): Promise<TExecution[]> {
  const rows = await db
    .select(executionColumns)
    .from(workflowExecutions)
    .leftJoin(userWorkflows, eq(userWorkflows.id, workflowExecutions.workflowId))
    .where(eq(workflowExecutions.userId, userId))
    .orderBy(newestFirst(workflowExecutions.createdAt))
    .limit(limit);
  return rows.map(toExecution);
}

export async function runStatus(db: DbOrTx, runId: string): Promise<string | null> {
  const [row] = await db
    .select({ status: workflowExecutions.status })
    .from(workflowExecutions)
    .where(eq(workflowExecutions.id, runId));
  return row?.status ?? null;
}

export const openStatusFilter = inArray(workflowExecutions.status, [...OPEN_STATUSES]);
