import { and, eq, inArray } from 'drizzle-orm';
import {
  type TExecution,
  type TExecutionDetail,
  type TExecutionListItem,
  type TStoredFileAnswer,
  ZSentAnswer,
  ZStoredFileAnswer,
} from '#shared/contract/executions.js';
import type { DbOrTx } from '#server/db/client.js';
import { userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { newestFirst } from '#server/db/sql-helpers.js';
import { notFound } from '#server/lib/errors.js';
import { runFailureText, workflowMessageOf } from '#shared/i18n/run-failures.js';
import { readTranscript, transcriptResponses } from '../chat/service.js';
import { endedBeforeSubmit, refundsOnEnd } from '../credits/service.js';

const OPEN_STATUSES = ['pending', 'running'] as const;
export const isOpen = (status: string) => status === 'pending' || status === 'running';

/**
 * Whether the run is still `status` for what its caller does: a run whose time is up belongs to the expiry
 * job, whatever its status says until that job passes.
 */
export const stillIn = (
  run: { status: string; expiresAt: Date | null },
  status: string,
  now: Date,
): boolean => run.status === status && run.expiresAt !== null && run.expiresAt > now;

const executionColumns = {
  run: workflowExecutions,
  workflowName: userWorkflows.name,
};

type ExecutionRow = { run: typeof workflowExecutions.$inferSelect; workflowName: TExecution['workflowName'] };

export function toExecution({ run, workflowName }: ExecutionRow, now = new Date()): TExecution {
  // Past its expiry a file is gone for the reader even before the retention job has removed it.
  const fileExpired = run.fileExpiresAt !== null && (run.resultPath === null || run.fileExpiresAt <= now);
  const workflowMessage = workflowMessageOf(run.errorCode, run.errorMessage);
  return {
    id: run.id,
    workflowId: run.workflowId,
    workflowName: workflowName ?? null,
    status: run.status,
    origin: run.origin,
    creditsUsed: run.creditsUsed,
    outputType: run.outputType,
    outputUrl: run.outputUrl,
    outputFilename: run.outputFilename,
    outputSize: run.outputSize,
    outputData: run.outputData ?? null,
    resultPath: fileExpired ? null : run.resultPath,
    fileExpiresAt: run.fileExpiresAt?.toISOString() ?? null,
    fileExpired,
    errorCode: run.errorCode,
    workflowMessage,
    // The person reads why in plain words, in the run's language (an API run's is its caller's); the
    // server's technical detail in error_message is for admins.
    errorMessage: run.errorCode ? runFailureText(run.language, run.errorCode, workflowMessage) : null,
    endReason: endedBeforeSubmit(run) ? 'not_submitted' : null,
    progressMessage: run.progressMessage,
    executionTimeMs: run.executionTimeMs,
    // settleRun refunds the whole charge of a run that ends other than completed, when refundsOnEnd says so.
    creditsRefunded:
      (run.status === 'failed' || run.status === 'expired') && refundsOnEnd(run) ? run.creditsUsed : 0,
    createdAt: run.createdAt.toISOString(),
    completedAt: run.completedAt?.toISOString() ?? null,
  };
}

/** A run as its owner sees it; someone else's run is "not found", so its existence is not revealed. */
export async function getOwnRun(db: DbOrTx, userId: string, runId: string): Promise<TExecution> {
  return toExecution(await ownRunRow(db, userId, runId));
}

async function ownRunRow(db: DbOrTx, userId: string, runId: string) {
  const [row] = await db
    .select({ ...executionColumns, interactionType: userWorkflows.interactionType })
    .from(workflowExecutions)
    .leftJoin(userWorkflows, eq(userWorkflows.id, workflowExecutions.workflowId))
    .where(and(eq(workflowExecutions.id, runId), eq(workflowExecutions.userId, userId)));
  if (!row) throw notFound('execution');
  return row;
}

const ZSentAnswers = ZSentAnswer.array();

/**
 * A file answer as the run keeps it in input_data, or null for any other answer. Runs completed before
 * decision 137 kept the file's type as `content_type`; both spellings read the same.
 */
export function keptFileAnswer(answer: unknown): TStoredFileAnswer | null {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return null;
  const { content_type: legacyType, ...rest } = answer as Record<string, unknown>;
  const kept = legacyType === undefined ? rest : { ...rest, contentType: legacyType };
  return ZStoredFileAnswer.safeParse(kept).data ?? null;
}

/** input_data's answers with every kept file answer in today's spelling; anything else as it is. */
function withKeptFileAnswers(inputData: unknown): unknown {
  if (!Array.isArray(inputData)) return inputData;
  return inputData.map((item: unknown) => {
    const answer = (item as { answer?: unknown } | null)?.answer;
    const file = keptFileAnswer(answer);
    return file ? { ...(item as object), answer: file } : item;
  });
}

/**
 * What the run sent, read from input_data: the answers once completed, or the chat transcript a pending
 * chat run keeps there (shown as the same question and answer pairs the workflow will get).
 */
function sentAnswers(inputData: unknown): TExecutionDetail['answers'] {
  if (inputData === null || inputData === undefined) return null;
  const sent = ZSentAnswers.safeParse(withKeptFileAnswers(inputData));
  if (sent.success) return sent.data;
  try {
    return transcriptResponses(readTranscript(inputData));
  } catch {
    // Neither shape: say nothing rather than fail the whole page over what was sent.
    return null;
  }
}

/** A pending chat's transcript, or null when what it holds is not one (the page then starts afresh). */
function pendingConversation(inputData: unknown): TExecutionDetail['conversation'] {
  try {
    return readTranscript(inputData);
  } catch {
    return null;
  }
}

/** One of the owner's runs with what its page shows: what was sent, when it reached the workflow. */
export async function getOwnRunDetail(db: DbOrTx, userId: string, runId: string): Promise<TExecutionDetail> {
  const row = await ownRunRow(db, userId, runId);
  return {
    ...toExecution(row),
    interactionType: row.interactionType ?? null,
    dispatchedAt: row.run.dispatchedAt?.toISOString() ?? null,
    answers: sentAnswers(row.run.inputData),
    conversation:
      row.interactionType === 'chatbot' && row.run.status === 'pending'
        ? pendingConversation(row.run.inputData)
        : null,
  };
}

/** The user's runs, newest first (bounded: the history screen shows the latest ones). */
export async function listOwnRuns(db: DbOrTx, userId: string, limit = 500): Promise<TExecutionListItem[]> {
  const rows = await db
    .select(executionColumns)
    .from(workflowExecutions)
    .leftJoin(userWorkflows, eq(userWorkflows.id, workflowExecutions.workflowId))
    .where(eq(workflowExecutions.userId, userId))
    .orderBy(newestFirst(workflowExecutions.createdAt))
    .limit(limit);
  return rows.map((row) => {
    const run = toExecution(row);
    return {
      ...run,
      workflow: run.workflowId && run.workflowName ? { id: run.workflowId, name: run.workflowName } : null,
      credits_used: run.creditsUsed,
      created_at: run.createdAt,
    };
  });
}

export async function runStatus(db: DbOrTx, runId: string): Promise<string | null> {
  const [row] = await db
    .select({ status: workflowExecutions.status })
    .from(workflowExecutions)
    .where(eq(workflowExecutions.id, runId));
  return row?.status ?? null;
}

export const openStatusFilter = inArray(workflowExecutions.status, [...OPEN_STATUSES]);
