import type { TChatRequest } from '../../../shared/contract/chat.js';
import type { TTranslateRequest } from '../../../shared/contract/translate.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import {
  configuredLlm,
  createScriptedAssistant,
  LlmError,
  type LlmProvider,
} from '../../providers/llm/index.js';
import type { AppDeps } from '../../types.js';
import { getSetting } from '../settings/service.js';
import { chatSystemPrompt, translateSystemPrompt } from './prompt.js';
import {
  claimChatMessage,
  findChatWorkflow,
  findNewestPendingRun,
  findOwnRun,
  releaseChatMessage,
  type ChatRun,
} from './queries.js';

/**
 * The assistant's next reply in a run's conversation. Served only for a pending run of the caller on this
 * workflow, and at most `chat_max_messages` user messages per run. The reply is returned as the assistant
 * wrote it, completion marker included: the client strips it and ends the chat.
 */
export async function replyInChat(deps: AppDeps, userId: string, request: TChatRequest): Promise<string> {
  const last = request.messages.at(-1);
  if (!last || last.role !== 'user' || last.content.trim() === '') {
    throw badRequest('The last message must be a non-empty message from the user');
  }
  const workflow = await findChatWorkflow(deps.db, request.workflowId);
  if (!workflow) throw notFound('Workflow');
  if (workflow.interactionType !== 'chatbot') throw conflict('This workflow is a survey, not a chat');
  const run = await findChatRun(deps, userId, request);

  const maxMessages = await getSetting(deps.db, 'chat_max_messages');
  if (!(await claimChatMessage(deps.db, run.id, maxMessages))) {
    // Lost a race with the run ending, or the allowance is used up.
    const now = await findOwnRun(deps.db, userId, run.id);
    if (now?.status !== 'pending') throw conflict('This run is no longer waiting for a conversation');
    throw new AppError('CONFLICT', `This conversation has reached its limit of ${maxMessages} messages`, {
      limit: maxMessages,
    });
  }

  const assistant: LlmProvider =
    configuredLlm(deps.config) ?? createScriptedAssistant(workflow, request.language);
  try {
    return await assistant.complete({
      system: chatSystemPrompt(workflow, request.language),
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    });
  } catch (err) {
    await releaseChatMessage(deps.db, run.id);
    if (err instanceof LlmError)
      throw new AppError('BAD_GATEWAY', `The assistant is unavailable: ${err.message}`);
    throw err;
  }
}

async function findChatRun(deps: AppDeps, userId: string, request: TChatRequest): Promise<ChatRun> {
  if (!request.executionId) {
    const newest = await findNewestPendingRun(deps.db, userId, request.workflowId);
    if (!newest) throw conflict('There is no pending run of this workflow: start one before chatting');
    return newest;
  }
  const run = await findOwnRun(deps.db, userId, request.executionId);
  if (!run || run.workflowId !== request.workflowId) throw notFound('Execution');
  if (run.status !== 'pending') throw conflict('This run is no longer waiting for a conversation');
  return run;
}

/** The admin's translate button; needs a real LLM (the scripted assistant cannot translate). */
export async function translateText(deps: AppDeps, request: TTranslateRequest): Promise<string> {
  const llm = configuredLlm(deps.config);
  if (!llm) {
    throw new AppError(
      'NOT_CONFIGURED',
      'Translation needs a language model: set LLM_BASE_URL (and LLM_MODEL)',
    );
  }
  try {
    return await llm.complete({
      system: translateSystemPrompt(request.targetLanguage),
      messages: [{ role: 'user', content: request.text }],
      temperature: 0,
    });
  } catch (err) {
    if (err instanceof LlmError) throw new AppError('BAD_GATEWAY', `Translation failed: ${err.message}`);
    throw err;
  }
}
