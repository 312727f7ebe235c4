import { and, desc, eq } from 'drizzle-orm';
import { pickLanguage, type TLanguage } from '#shared/contract/common.js';
import type { TExecution } from '#shared/contract/executions.js';
import type { TApiRun, TApiWorkflow } from '#shared/contract/public-api.js';
import { surveyInputSchema } from '#shared/contract/survey-schema.js';
import type { DbOrTx } from '#server/db/client.js';
import { userWorkflows } from '#server/db/schema.js';
import { notFound } from '#server/lib/errors.js';
import { CARD_FIELDS, visibleTo } from '../workflows/service.js';

/** What the public API (and the MCP server) read of a workflow: public and active ones only. */
export const API_WORKFLOW_FIELDS = {
  ...CARD_FIELDS,
  surveyQuestions: userWorkflows.surveyQuestions,
  welcomeMessage: userWorkflows.welcomeMessage,
  updatedAt: userWorkflows.updatedAt,
};

export const publicActive = visibleTo('public');

export async function apiWorkflowRows(db: DbOrTx) {
  return db
    .select(API_WORKFLOW_FIELDS)
    .from(userWorkflows)
    .where(publicActive)
    .orderBy(desc(userWorkflows.createdAt), desc(userWorkflows.id));
}

/** One public active workflow, or 404 (private, inactive and unknown ones alike). */
export async function apiWorkflowRow(db: DbOrTx, id: string): Promise<ApiWorkflowRow> {
  const [row] = await db
    .select(API_WORKFLOW_FIELDS)
    .from(userWorkflows)
    .where(and(eq(userWorkflows.id, id), publicActive));
  if (!row) throw notFound('workflow');
  return row;
}

export type ApiWorkflowRow = Awaited<ReturnType<typeof apiWorkflowRows>>[number];

export function toApiWorkflow(row: ApiWorkflowRow, lng: TLanguage): TApiWorkflow {
  return {
    id: row.id,
    name: pickLanguage(row.name, lng),
    description: pickLanguage(row.description, lng),
    category: pickLanguage(row.category, lng),
    language: lng,
    interactionType: row.interactionType,
    creditsPerExecution: row.creditsPerExecution,
    inputSchema: row.interactionType === 'survey' ? surveyInputSchema(row.surveyQuestions, lng) : null,
  };
}

/** The address of a run's stored result file under the public API (authorised by the key, not the cookie). */
export function apiResultUrl(publicUrl: string, runId: string): string {
  return `${publicUrl.replace(/\/$/, '')}/api/v1/runs/${runId}/result`;
}

export function toApiRun(run: TExecution, publicUrl: string): TApiRun {
  return {
    id: run.id,
    workflowId: run.workflowId,
    status: run.status,
    creditsUsed: run.creditsUsed,
    creditsRefunded: run.creditsRefunded,
    outputType: run.outputType,
    outputData: run.outputData,
    resultUrl: run.resultPath ? apiResultUrl(publicUrl, run.id) : null,
    outputUrl: run.outputUrl,
    outputFilename: run.outputFilename,
    outputSize: run.outputSize,
    progressMessage: run.progressMessage,
    errorCode: run.errorCode,
    workflowMessage: run.workflowMessage,
    errorMessage: run.errorMessage,
    createdAt: run.createdAt,
    completedAt: run.completedAt,
  };
}
