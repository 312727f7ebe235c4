import { and, desc, eq, sql } from 'drizzle-orm';
import {
  sameJson,
  type TWorkflowVersion,
  type TWorkflowVersionContent,
  type TWorkflowVersionSummary,
} from '#shared/contract/workflow-versions.js';
import type { DbOrTx } from '#server/db/client.js';
import { users, userWorkflows, workflowVersions } from '#server/db/schema.js';
import { notFound } from '#server/lib/errors.js';
import type { WorkflowRow } from './manage.js';

/**
 * What a run uses of a workflow, as a version keeps it (decision 148). The one place that says which columns
 * make a version; migration 0028 built the first versions with the same keys. Never the secret.
 */
function versionContent(w: WorkflowRow): TWorkflowVersionContent {
  return {
    name: w.name,
    description: w.description ?? null,
    category: w.category,
    interactionType: w.interactionType,
    creditsPerExecution: w.creditsPerExecution,
    webhookUrl: w.webhookUrl,
    welcomeMessage: w.welcomeMessage ?? null,
    aiPrompt: w.aiPrompt ?? null,
    surveyQuestions: w.surveyQuestions,
  };
}

/** A new workflow's first version, in its creating transaction. */
export async function recordFirstVersion(
  db: DbOrTx,
  row: WorkflowRow,
  authorId: string | null,
): Promise<void> {
  await db.insert(workflowVersions).values({
    workflowId: row.id,
    version: row.version,
    content: versionContent(row),
    authorId,
    createdAt: row.createdAt,
  });
}

/**
 * After a save: when what a run uses changed from `before` to `after`, the workflow's version number moves on
 * and the new version is written, in the caller's transaction (which holds the workflow's row lock, so two
 * saves cannot take the same number). Answers the row as it now is.
 */
export async function recordVersionIfChanged(
  tx: DbOrTx,
  before: WorkflowRow,
  after: WorkflowRow,
  authorId: string,
  restoredFrom: number | null = null,
): Promise<WorkflowRow> {
  const content = versionContent(after);
  if (sameJson(versionContent(before), content)) return after;
  const [row] = await tx
    .update(userWorkflows)
    .set({ version: sql`${userWorkflows.version} + 1` })
    .where(eq(userWorkflows.id, after.id))
    .returning();
  if (!row) throw notFound('workflow');
  await tx.insert(workflowVersions).values({
    workflowId: row.id,
    version: row.version,
    content,
    authorId,
    restoredFrom,
  });
  return row;
}

const summaryColumns = {
  version: workflowVersions.version,
  restoredFrom: workflowVersions.restoredFrom,
  createdAt: workflowVersions.createdAt,
  authorId: users.id,
  authorEmail: users.email,
  current: sql<boolean>`${workflowVersions.version} = ${userWorkflows.version}`,
};

type SummaryRow = {
  version: number;
  restoredFrom: number | null;
  createdAt: Date;
  authorId: string | null;
  authorEmail: string | null;
  current: boolean;
};

function toSummary(r: SummaryRow): TWorkflowVersionSummary {
  return {
    version: r.version,
    restoredFrom: r.restoredFrom,
    current: Boolean(r.current),
    createdAt: r.createdAt.toISOString(),
    author: r.authorId && r.authorEmail !== null ? { id: r.authorId, email: r.authorEmail } : null,
  };
}

/** A workflow's history, newest first, with the number of versions; 404 for an unknown workflow. */
export async function listVersions(
  db: DbOrTx,
  workflowId: string,
  page: { limit: number; offset: number },
): Promise<{ rows: TWorkflowVersionSummary[]; total: number }> {
  const [workflow] = await db
    .select({
      n: sql<number>`(select count(*)::int from ${workflowVersions} where ${workflowVersions.workflowId} = ${userWorkflows.id})`,
    })
    .from(userWorkflows)
    .where(eq(userWorkflows.id, workflowId));
  if (!workflow) throw notFound('workflow');
  const rows = await db
    .select(summaryColumns)
    .from(workflowVersions)
    .innerJoin(userWorkflows, eq(userWorkflows.id, workflowVersions.workflowId))
    .leftJoin(users, eq(users.id, workflowVersions.authorId))
    .where(eq(workflowVersions.workflowId, workflowId))
    .orderBy(desc(workflowVersions.version))
    .limit(page.limit)
    .offset(page.offset);
  return { rows: rows.map(toSummary), total: Number(workflow.n) };
}

/** One version with its content; 404 when the workflow or that version does not exist. */
export async function getVersion(db: DbOrTx, workflowId: string, version: number): Promise<TWorkflowVersion> {
  const [row] = await db
    .select({ ...summaryColumns, content: workflowVersions.content })
    .from(workflowVersions)
    .innerJoin(userWorkflows, eq(userWorkflows.id, workflowVersions.workflowId))
    .leftJoin(users, eq(users.id, workflowVersions.authorId))
    .where(and(eq(workflowVersions.workflowId, workflowId), eq(workflowVersions.version, version)));
  if (!row) throw notFound('workflowVersion');
  return { ...toSummary(row), content: row.content };
}
