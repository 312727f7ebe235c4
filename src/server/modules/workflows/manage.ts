import type { TWorkflowInputParsed } from '../../../shared/contract/workflows.js';
import type { DbOrTx } from '../../db/client.js';
import { userWorkflows } from '../../db/schema.js';
import { newWebhookSecret } from './secrets.js';

export type WorkflowRow = typeof userWorkflows.$inferSelect;

/** Creates a workflow with its own signing secret. Audit rows are the caller's (admin) business. */
export async function createWorkflow(db: DbOrTx, input: TWorkflowInputParsed): Promise<WorkflowRow> {
  const [row] = await db
    .insert(userWorkflows)
    .values({
      userId: input.userId,
      name: input.name,
      description: input.description ?? null,
      category: input.category,
      webhookUrl: input.webhookUrl,
      secretToken: newWebhookSecret(),
      isPublic: input.isPublic,
      isActive: input.isActive,
      creditsPerExecution: input.creditsPerExecution,
      interactionType: input.interactionType,
      welcomeMessage: input.interactionType === 'chatbot' ? (input.welcomeMessage ?? null) : null,
      aiPrompt: input.interactionType === 'chatbot' ? (input.aiPrompt ?? null) : null,
      surveyQuestions: input.interactionType === 'survey' ? input.surveyQuestions : [],
    })
    .returning();
  if (!row) throw new Error('workflow insert returned nothing');
  return row;
}
