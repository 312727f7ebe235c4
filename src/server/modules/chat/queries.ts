import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { TBilingual, TLanguage } from '#shared/contract/common.js';
import type { TInteractionType } from '#shared/contract/workflows.js';
import type { Db } from '#server/db/client.js';
import { userWorkflows, workflowExecutions } from '#server/db/schema.js';
import type { TranscriptTurn } from './transcript.js';

// The executions module owns workflow_executions. Chat reads a run's identity and status and reads and
// updates only its chat columns, here and nowhere else: chat_message_count, and input_data while the run is
// pending, which holds the conversation so far (transcript.ts) until completing the run replaces it with the
// responses made from it.

interface ChatWorkflow {
  id: string;
  name: TBilingual;
  interactionType: TInteractionType;
  welcomeMessage: TBilingual | null;
  aiPrompt: string | null;
}

/** A run as a refused message's error names it. */
export interface ChatRun {
  id: string;
  workflowId: string;
  status: string;
}

/** A workflow's kind, as a refused message's error names it. */
export async function findWorkflowKind(
  db: Db,
  workflowId: string,
): Promise<{ interactionType: TInteractionType } | undefined> {
  const [row] = await db
    .select({ interactionType: userWorkflows.interactionType })
    .from(userWorkflows)
    .where(eq(userWorkflows.id, workflowId));
  return row;
}

const runColumns = {
  id: workflowExecutions.id,
  workflowId: workflowExecutions.workflowId,
  status: workflowExecutions.status,
};

/** The caller's run with this id, whatever its status. */
export async function findOwnRun(db: Db, userId: string, executionId: string): Promise<ChatRun | undefined> {
  const [row] = await db
    .select(runColumns)
    .from(workflowExecutions)
    .where(and(eq(workflowExecutions.id, executionId), eq(workflowExecutions.userId, userId)));
  return row;
}

/** The caller's newest pending run of this workflow. */
export async function findNewestPendingRun(
  db: Db,
  userId: string,
  workflowId: string,
): Promise<ChatRun | undefined> {
  const [row] = await db
    .select(runColumns)
    .from(workflowExecutions)
    .where(
      and(
        eq(workflowExecutions.userId, userId),
        eq(workflowExecutions.workflowId, workflowId),
        eq(workflowExecutions.status, 'pending'),
      ),
    )
    .orderBy(desc(workflowExecutions.createdAt))
    .limit(1);
  return row;
}

/** Which run a message is for: the caller's, named by id or as their newest pending run of a workflow. */
export type ChatTarget =
  | { userId: string; executionId: string; workflowId?: string }
  | { userId: string; executionId?: undefined; workflowId: string };

/** A message counted against its run's allowance, with what its reply needs of the run and the workflow. */
export interface ClaimedChatMessage {
  runId: string;
  /** The run's count with this message. */
  count: number;
  /** 0 until the run is charged (a web chat at its first message). */
  creditsUsed: number;
  /** The language the run was started in. */
  language: TLanguage;
  /** The stored transcript (read it with readTranscript). */
  inputData: unknown;
  workflow: ChatWorkflow;
}

const newest = alias(workflowExecutions, 'newest');

/**
 * Counts one more user message against a run's allowance, in the one statement that also makes every check
 * a message must pass: the run is the caller's and pending, its workflow is a chat (the one the caller named,
 * when they named one), and the run is under the cap. A conditional update, so concurrent messages can never
 * pass the cap. Undefined when nothing was counted: the caller then reads why (a refusal is the rare case,
 * and every round trip here delays the first words of the reply).
 */
export async function claimChatMessage(
  db: Db,
  target: ChatTarget,
  maxMessages: number,
): Promise<ClaimedChatMessage | undefined> {
  const run =
    target.executionId !== undefined
      ? eq(workflowExecutions.id, target.executionId)
      : eq(
          workflowExecutions.id,
          db
            .select({ id: newest.id })
            .from(newest)
            .where(
              and(
                eq(newest.userId, target.userId),
                eq(newest.workflowId, target.workflowId),
                eq(newest.status, 'pending'),
              ),
            )
            .orderBy(desc(newest.createdAt))
            .limit(1),
        );
  const [row] = await db
    .update(workflowExecutions)
    .set({ chatMessageCount: sql`${workflowExecutions.chatMessageCount} + 1` })
    .from(userWorkflows)
    .where(
      and(
        run,
        eq(workflowExecutions.userId, target.userId),
        eq(workflowExecutions.status, 'pending'),
        lt(workflowExecutions.chatMessageCount, maxMessages),
        eq(userWorkflows.id, workflowExecutions.workflowId),
        eq(userWorkflows.interactionType, 'chatbot'),
        target.workflowId !== undefined ? eq(userWorkflows.id, target.workflowId) : undefined,
      ),
    )
    .returning({
      runId: workflowExecutions.id,
      count: workflowExecutions.chatMessageCount,
      creditsUsed: workflowExecutions.creditsUsed,
      language: workflowExecutions.language,
      inputData: workflowExecutions.inputData,
      workflow: {
        id: userWorkflows.id,
        name: userWorkflows.name,
        interactionType: userWorkflows.interactionType,
        welcomeMessage: userWorkflows.welcomeMessage,
        aiPrompt: userWorkflows.aiPrompt,
      },
    });
  return row;
}

/** Gives a message back to the allowance when the assistant could not answer it. */
export async function releaseChatMessage(db: Db, executionId: string): Promise<void> {
  await db
    .update(workflowExecutions)
    .set({ chatMessageCount: sql`${workflowExecutions.chatMessageCount} - 1` })
    .where(and(eq(workflowExecutions.id, executionId), sql`${workflowExecutions.chatMessageCount} > 0`));
}

/**
 * Adds turns to a pending run's transcript, starting it with `opening` when the run has none yet. One
 * statement on the row: concurrent replies each add their whole exchange, never half of one, and a run that
 * stopped being pending meanwhile (completed, expired) is left alone. False when nothing was added.
 */
export async function appendChatTurns(
  db: Db,
  executionId: string,
  opening: TranscriptTurn[],
  turns: TranscriptTurn[],
): Promise<boolean> {
  const rows = await db
    .update(workflowExecutions)
    .set({
      inputData: sql`coalesce(${workflowExecutions.inputData}, ${JSON.stringify(opening)}::jsonb) || ${JSON.stringify(turns)}::jsonb`,
    })
    .where(and(eq(workflowExecutions.id, executionId), eq(workflowExecutions.status, 'pending')))
    .returning({ id: workflowExecutions.id });
  return rows.length === 1;
}
