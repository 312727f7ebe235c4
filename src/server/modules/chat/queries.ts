import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { TBilingual } from '#shared/contract/common.js';
import type { TInteractionType } from '#shared/contract/workflows.js';
import type { Db } from '#server/db/client.js';
import { userWorkflows, workflowExecutions } from '#server/db/schema.js';
import type { TranscriptTurn } from './transcript.js';

// The executions module owns workflow_executions. Chat reads a run's identity and status and reads and
// updates only its chat columns, here and nowhere else: chat_message_count, and input_data while the run is
// pending, which holds the conversation so far (transcript.ts) until completing the run replaces it with the
// responses made from it.

export interface ChatWorkflow {
  id: string;
  name: TBilingual;
  interactionType: TInteractionType;
  welcomeMessage: TBilingual | null;
  aiPrompt: string | null;
}

export interface ChatRun {
  id: string;
  workflowId: string;
  status: string;
  chatMessageCount: number;
  /** The stored transcript (read it with readTranscript). */
  inputData: unknown;
}

export async function findChatWorkflow(db: Db, workflowId: string): Promise<ChatWorkflow | undefined> {
  const [row] = await db
    .select({
      id: userWorkflows.id,
      name: userWorkflows.name,
      interactionType: userWorkflows.interactionType,
      welcomeMessage: userWorkflows.welcomeMessage,
      aiPrompt: userWorkflows.aiPrompt,
    })
    .from(userWorkflows)
    .where(eq(userWorkflows.id, workflowId));
  return row;
}

const runColumns = {
  id: workflowExecutions.id,
  workflowId: workflowExecutions.workflowId,
  status: workflowExecutions.status,
  chatMessageCount: workflowExecutions.chatMessageCount,
  inputData: workflowExecutions.inputData,
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

/**
 * Counts one more user message against the run's allowance, only while the run is pending and under the
 * cap: a conditional update, so concurrent messages can never pass the cap. False when nothing was counted.
 */
export async function claimChatMessage(db: Db, executionId: string, maxMessages: number): Promise<boolean> {
  const rows = await db
    .update(workflowExecutions)
    .set({ chatMessageCount: sql`${workflowExecutions.chatMessageCount} + 1` })
    .where(
      and(
        eq(workflowExecutions.id, executionId),
        eq(workflowExecutions.status, 'pending'),
        lt(workflowExecutions.chatMessageCount, maxMessages),
      ),
    )
    .returning({ id: workflowExecutions.id });
  return rows.length === 1;
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
