import { eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { TWorkflowInputParsed } from '#shared/contract/workflows.js';
import type { DbOrTx } from '#server/db/client.js';
import { userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { newWebhookSecret } from './secrets.js';
import { recordFirstVersion } from './versions.js';

export type WorkflowRow = typeof userWorkflows.$inferSelect;

/** The columns an admin's form sets; fields of the other interaction type are cleared. */
function formColumns(input: TWorkflowInputParsed) {
  const chatbot = input.interactionType === 'chatbot';
  return {
    userId: input.userId,
    name: input.name,
    description: input.description ?? null,
    category: input.category,
    webhookUrl: input.webhookUrl,
    isPublic: input.isPublic,
    isActive: input.isActive,
    creditsPerExecution: input.creditsPerExecution,
    interactionType: input.interactionType,
    welcomeMessage: chatbot ? (input.welcomeMessage ?? null) : null,
    aiPrompt: chatbot ? (input.aiPrompt ?? null) : null,
    surveyQuestions: chatbot ? [] : input.surveyQuestions,
  };
}

/**
 * Creates a workflow with its own signing secret and its first version (by `authorId`, when an admin made it).
 * Audit rows are the caller's (admin) business.
 */
export async function createWorkflow(
  db: DbOrTx,
  input: TWorkflowInputParsed,
  authorId: string | null = null,
): Promise<WorkflowRow> {
  const [row] = await db
    .insert(userWorkflows)
    .values({ ...formColumns(input), secretToken: newWebhookSecret() })
    .returning();
  if (!row) throw new Error('workflow insert returned nothing');
  await recordFirstVersion(db, row, authorId);
  return row;
}

/** How long a rotated-out secret keeps signing, so a workflow service can switch without losing calls. */
const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Every change of a workflow goes through here: `updatedAt` is always moved to the database's now(), as the
 * public catalogue cache is keyed on it. Null when there is no such workflow.
 */
async function changeWorkflow(
  db: DbOrTx,
  id: string,
  changes: PgUpdateSetSource<typeof userWorkflows>,
): Promise<WorkflowRow | null> {
  const [row] = await db
    .update(userWorkflows)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(userWorkflows.id, id))
    .returning();
  return row ?? null;
}

/** Replaces a workflow's editable fields with a full, validated form. */
export async function updateWorkflow(
  db: DbOrTx,
  id: string,
  input: TWorkflowInputParsed,
): Promise<WorkflowRow | null> {
  return changeWorkflow(db, id, formColumns(input));
}

/**
 * Deletes a workflow: its runs go with it (foreign key cascade) and its ledger rows stay, with workflowId
 * set to null by the foreign key. Returns the number of runs deleted, or null if there was no such workflow.
 */
export async function deleteWorkflow(db: DbOrTx, id: string): Promise<number | null> {
  const [runs] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(workflowExecutions)
    .where(eq(workflowExecutions.workflowId, id));
  const deleted = await db
    .delete(userWorkflows)
    .where(eq(userWorkflows.id, id))
    .returning({ id: userWorkflows.id });
  return deleted.length ? (runs?.n ?? 0) : null;
}

/** A new signing secret; the old one keeps signing (second signature) for PREVIOUS_SECRET_GRACE_MS. */
export async function rotateWorkflowSecret(db: DbOrTx, id: string, now: Date): Promise<WorkflowRow | null> {
  return changeWorkflow(db, id, {
    previousSecretToken: sql`${userWorkflows.secretToken}`,
    previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
    secretToken: newWebhookSecret(),
  });
}

/**
 * Archives a workflow (`archivedAt` set) or brings it back (null): an archived one leaves the catalogue and
 * cannot be started, and keeps its runs, results and reviews (decision 149).
 */
export async function setWorkflowArchived(
  db: DbOrTx,
  id: string,
  archivedAt: Date | null,
): Promise<WorkflowRow | null> {
  return changeWorkflow(db, id, { archivedAt });
}

/** Activates or deactivates a workflow; an inactive one leaves the catalogue and cannot be started. */
export async function setWorkflowActive(
  db: DbOrTx,
  id: string,
  isActive: boolean,
): Promise<WorkflowRow | null> {
  return changeWorkflow(db, id, { isActive });
}
