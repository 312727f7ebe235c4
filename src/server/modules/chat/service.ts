import type { TChatRequest } from '#shared/contract/chat.js';
import { pickLanguage, type TLanguage } from '#shared/contract/common.js';
import { AppError, badRequest, conflict, notFound } from '#server/lib/errors.js';
import {
  configuredLlm,
  createScriptedAssistant,
  LlmError,
  type LlmProvider,
} from '#server/providers/llm/index.js';
import type { AppDeps } from '#server/types.js';
import { lockKeySpending } from '../apikeys/service.js';
import { chargeRun } from '../credits/service.js';
import { getSettings } from '../settings/service.js';
import { chatSystemPrompt, withClosingMarker } from './prompt.js';
import {
  appendChatTurns,
  claimChatMessage,
  findNewestPendingRun,
  findOwnRun,
  findWorkflowKind,
  releaseChatMessage,
  type ChatTarget,
} from './queries.js';
import { readTranscript, type TranscriptTurn } from './transcript.js';
import type { ChatReply, PendingChatReply } from './types.js';

// Completing a chat run (executions) turns the transcript kept here into the run's responses.
export { readTranscript, transcriptResponses } from './transcript.js';
// The public API's chat messages (executions) answer through the same checks and the same event stream.
export { doneEvent, sendReplyAsEvents, wantsEventStream } from './reply-events.js';
export type { ChatReply, PendingChatReply } from './types.js';

/**
 * A message of a run's conversation, accepted for the assistant's next reply. Served only for a pending run of
 * the caller on this workflow, and at most `chat_max_messages` user messages per run. The model gets the system
 * prompt, the transcript the server kept (transcript.ts) and the new message: of what the client sends, only
 * its last message is read, and it must be the user's and at most `chat_max_message_chars` long. So a client
 * can neither put words in the assistant's mouth nor send the model more than one message's worth per call. The
 * reply is returned as the assistant wrote it, completion marker included: the client strips it and ends the
 * chat. Every check (its length, the workflow, the run, the run's allowance) and the message's count happen
 * here: what is refused here is refused before any reply starts, so a streamed reply's errors up to this point
 * are ordinary error answers.
 */
export async function acceptChatMessage(
  deps: AppDeps,
  userId: string,
  request: TChatRequest,
): Promise<PendingChatReply> {
  const index = request.messages.length - 1;
  const last = request.messages[index];
  return acceptMessage(
    deps,
    request.executionId !== undefined
      ? { userId, executionId: request.executionId, workflowId: request.workflowId }
      : { userId, workflowId: request.workflowId },
    last?.role === 'user' ? last.content : '',
    request.language,
    `messages.${index}.content`,
  );
}

/**
 * A message to one of the caller's runs, named by its id alone (the public API and MCP): the same checks and
 * the same reply as `POST /api/chat`, in the language the run was started in unless another is asked for. The
 * first message charges the run as the web's does, under the monthly limit of the key it was sent with.
 */
export async function acceptRunMessage(
  deps: AppDeps,
  userId: string,
  runId: string,
  content: string,
  language: TLanguage | undefined,
  apiKeyId: string,
): Promise<PendingChatReply> {
  return acceptMessage(deps, { userId, executionId: runId }, content, language, 'content', apiKeyId);
}

async function acceptMessage(
  deps: AppDeps,
  target: ChatTarget,
  content: string,
  requested: TLanguage | undefined,
  /** How the refused field is named to the caller: the public API sends `content` alone. */
  field: string,
  /** The API key the message came with, whose monthly limit the first message's charge keeps to. */
  apiKeyId?: string,
): Promise<PendingChatReply> {
  const text = content.trim();
  if (text === '') throw badRequest('emptyChatMessage');
  // Both limits in one read, then the message counted with every check of the run and the workflow in one
  // statement: each round trip here delays the first words of the reply.
  const { chat_max_message_chars: maxChars, chat_max_messages: maxMessages } = await getSettings(deps.db, [
    'chat_max_message_chars',
    'chat_max_messages',
  ]);
  if (text.length > maxChars) {
    throw badRequest(
      { key: 'chatMessageTooLong', params: { max: maxChars } },
      {
        fields: [{ field, message: `at most ${maxChars} characters` }],
        limit: maxChars,
      },
    );
  }
  const claimed = await claimChatMessage(deps.db, target, maxMessages);
  if (!claimed) return refuse(deps, target, maxMessages);
  const { workflow, count } = claimed;
  const language = requested ?? claimed.language;
  let stored: TranscriptTurn[];
  try {
    stored = readTranscript(claimed.inputData);
  } catch (err) {
    // A run that holds no transcript cannot be answered: the message does not count.
    await releaseChatMessage(deps.db, claimed.runId);
    throw err;
  }

  // A chat is paid for at its first message, before the model works, from the web, the API or MCP alike
  // (decision 164); a test run is charged to no one (chargeRun passes it over).
  if (claimed.creditsUsed === 0) {
    try {
      await deps.db.transaction(async (tx) => {
        // Sent with an API key: the charge keeps to its monthly limit and counts in its spending.
        const spend = apiKeyId === undefined ? undefined : await lockKeySpending(tx, apiKeyId, deps.now());
        const charged = await chargeRun(tx, deps.metrics, claimed.runId);
        if (charged > 0) await spend?.(charged);
      });
    } catch (err) {
      await releaseChatMessage(deps.db, claimed.runId);
      throw err;
    }
  }

  // The welcome message is the conversation's first turn: the person answers it with their first message.
  const welcome = pickLanguage(workflow.welcomeMessage, language);
  const opening: TranscriptTurn[] = welcome ? [{ role: 'assistant', content: welcome }] : [];
  const message: TranscriptTurn = { role: 'user', content: text };
  const assistant: LlmProvider =
    configuredLlm(deps.config) ??
    createScriptedAssistant(workflow, language, { wordMs: deps.config.demoChatWordMs });
  // The allowance's last message gets a closing reply, so the run is completed instead of left at a dead end.
  const remaining = Math.max(0, maxMessages - count);
  const final = remaining === 0;
  const llmRequest = {
    system: chatSystemPrompt(workflow, language, final),
    messages: [...(stored.length > 0 ? stored : opening), message],
    final,
  };

  let used = false;
  const answer = async (write: () => Promise<string>): Promise<ChatReply> => {
    if (used) throw new Error('a chat message is answered once');
    used = true;
    let reply: string;
    try {
      reply = await write();
      if (reply.trim() === '')
        throw new LlmError('The language model answered without any text', 'invalid-response');
      if (final) reply = withClosingMarker(reply, language);
    } catch (err) {
      // Nothing was added to the transcript: the message was not answered, so it does not count either.
      await releaseChatMessage(deps.db, claimed.runId);
      if (err instanceof LlmError && err.reason === 'aborted') throw new AppError('CONFLICT', 'replyStopped');
      if (err instanceof LlmError)
        throw new AppError('BAD_GATEWAY', { key: 'assistantUnavailable', params: { reason: err.message } });
      throw err;
    }
    // The message and its reply go in together; a run completed or expired while the model wrote keeps the
    // conversation it was completed with.
    if (
      !(await appendChatTurns(deps.db, claimed.runId, opening, [
        message,
        { role: 'assistant', content: reply },
      ]))
    ) {
      throw noLongerWaiting();
    }
    return { content: reply, remaining };
  };

  return {
    runId: claimed.runId,
    complete: () => answer(() => assistant.complete(llmRequest)),
    stream: (signal, onPiece) =>
      answer(async () => {
        let whole = '';
        for await (const piece of assistant.stream(llmRequest, signal)) {
          whole += piece;
          onPiece(piece);
        }
        // A provider that stops quietly once aborted must not pass for a finished reply.
        if (signal.aborted) throw new LlmError('The reply was stopped', 'aborted');
        return whole.trim();
      }),
  };
}

const noLongerWaiting = () => conflict('runNotWaiting');

/**
 * Why a message was not counted, read only then, and named as a caller meets the checks: an unknown run or
 * workflow, a workflow that is not a chat, a run that is not waiting, then the allowance used up (also when a
 * race with another message or with the run ending made the count refuse what now looks allowed).
 */
async function refuse(deps: AppDeps, target: ChatTarget, maxMessages: number): Promise<never> {
  const { userId, executionId } = target;
  const own = executionId === undefined ? undefined : await findOwnRun(deps.db, userId, executionId);
  // The public API names the run alone: its workflow is the run's own.
  const workflowId = target.workflowId ?? own?.workflowId;
  if (workflowId === undefined) throw notFound('execution');
  const workflow = await findWorkflowKind(deps.db, workflowId);
  if (!workflow) throw notFound('workflow');
  if (workflow.interactionType !== 'chatbot') throw conflict('notAChat');
  const run = executionId === undefined ? await findNewestPendingRun(deps.db, userId, workflowId) : own;
  if (!run) throw executionId === undefined ? conflict('noPendingRun') : notFound('execution');
  if (run.workflowId !== workflowId) throw notFound('execution');
  if (run.status !== 'pending') throw noLongerWaiting();
  throw new AppError('CONFLICT', { key: 'chatLimit', params: { max: maxMessages } }, { limit: maxMessages });
}
