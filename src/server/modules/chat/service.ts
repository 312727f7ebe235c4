import type { TChatRequest } from '#shared/contract/chat.js';
import { pickLanguage } from '#shared/contract/common.js';
import { AppError, badRequest, conflict, notFound } from '#server/lib/errors.js';
import {
  configuredLlm,
  createScriptedAssistant,
  LlmError,
  type LlmProvider,
} from '#server/providers/llm/index.js';
import type { AppDeps } from '#server/types.js';
import { getSetting } from '../settings/service.js';
import { chatSystemPrompt } from './prompt.js';
import {
  appendChatTurns,
  claimChatMessage,
  findChatWorkflow,
  findNewestPendingRun,
  findOwnRun,
  releaseChatMessage,
  type ChatRun,
} from './queries.js';
import { readTranscript, type TranscriptTurn } from './transcript.js';

// Completing a chat run (executions) turns the transcript kept here into the run's responses.
export { readTranscript, transcriptResponses } from './transcript.js';

/**
 * The assistant's next reply in a run's conversation. Served only for a pending run of the caller on this
 * workflow, and at most `chat_max_messages` user messages per run. The model gets the system prompt, the
 * transcript the server kept (transcript.ts) and the new message: of what the client sends, only its last
 * message is read, and it must be the user's and at most `chat_max_message_chars` long. So a client can
 * neither put words in the assistant's mouth nor send the model more than one message's worth per call. The
 * reply is returned as the assistant wrote it, completion marker included: the client strips it and ends the
 * chat.
 */
export async function replyInChat(deps: AppDeps, userId: string, request: TChatRequest): Promise<string> {
  const index = request.messages.length - 1;
  const last = request.messages[index];
  const text = last?.role === 'user' ? last.content.trim() : '';
  if (text === '') throw badRequest('The last message must be a non-empty message from the user');
  const maxChars = await getSetting(deps.db, 'chat_max_message_chars');
  if (text.length > maxChars) {
    throw badRequest(`A message can have at most ${maxChars} characters`, {
      fields: [{ field: `messages.${index}.content`, message: `at most ${maxChars} characters` }],
      limit: maxChars,
    });
  }
  const workflow = await findChatWorkflow(deps.db, request.workflowId);
  if (!workflow) throw notFound('Workflow');
  if (workflow.interactionType !== 'chatbot') throw conflict('This workflow is a survey, not a chat');
  const run = await findChatRun(deps, userId, request);
  const stored = readTranscript(run.inputData);

  const maxMessages = await getSetting(deps.db, 'chat_max_messages');
  if (!(await claimChatMessage(deps.db, run.id, maxMessages))) {
    // Lost a race with the run ending, or the allowance is used up.
    const now = await findOwnRun(deps.db, userId, run.id);
    if (now?.status !== 'pending') throw noLongerWaiting();
    throw new AppError('CONFLICT', `This conversation has reached its limit of ${maxMessages} messages`, {
      limit: maxMessages,
    });
  }

  // The welcome message is the conversation's first turn: the person answers it with their first message.
  const welcome = pickLanguage(workflow.welcomeMessage, request.language);
  const opening: TranscriptTurn[] = welcome ? [{ role: 'assistant', content: welcome }] : [];
  const message: TranscriptTurn = { role: 'user', content: text };
  const assistant: LlmProvider =
    configuredLlm(deps.config) ?? createScriptedAssistant(workflow, request.language);
  let reply: string;
  try {
    reply = await assistant.complete({
      system: chatSystemPrompt(workflow, request.language),
      messages: [...(stored.length > 0 ? stored : opening), message],
    });
  } catch (err) {
    // Nothing was added to the transcript: the message was not answered, so it does not count either.
    await releaseChatMessage(deps.db, run.id);
    if (err instanceof LlmError)
      throw new AppError('BAD_GATEWAY', `The assistant is unavailable: ${err.message}`);
    throw err;
  }
  // The message and its reply go in together; a run completed or expired while the model wrote keeps the
  // conversation it was completed with.
  if (!(await appendChatTurns(deps.db, run.id, opening, [message, { role: 'assistant', content: reply }]))) {
    throw noLongerWaiting();
  }
  return reply;
}

const noLongerWaiting = () => conflict('This run is no longer waiting for a conversation');

async function findChatRun(deps: AppDeps, userId: string, request: TChatRequest): Promise<ChatRun> {
  if (!request.executionId) {
    const newest = await findNewestPendingRun(deps.db, userId, request.workflowId);
    if (!newest) throw conflict('There is no pending run of this workflow: start one before chatting');
    return newest;
  }
  const run = await findOwnRun(deps.db, userId, request.executionId);
  if (!run || run.workflowId !== request.workflowId) throw notFound('Execution');
  if (run.status !== 'pending') throw noLongerWaiting();
  return run;
}
