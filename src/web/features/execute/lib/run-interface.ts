import type { TPublicWorkflowDetail } from '#shared/contract/workflows';

export type RunInterface = 'chat' | 'survey' | null;

/** How a workflow is run: a chat needs a welcome message (in either language), a survey its questions. */
export function runInterfaceOf(
  workflow: Pick<TPublicWorkflowDetail, 'interactionType' | 'welcomeMessage' | 'surveyQuestions'>,
): RunInterface {
  if (workflow.interactionType === 'chatbot') {
    const welcome = workflow.welcomeMessage;
    return welcome && (welcome.en.trim() || welcome.es.trim()) ? 'chat' : null;
  }
  return workflow.surveyQuestions.length > 0 ? 'survey' : null;
}
