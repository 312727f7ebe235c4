import type { TBilingual, TLanguage } from '#shared/contract/common.js';
import { splitCompletionMarker } from '#shared/contract/chat.js';
import { LANGUAGE_NAME } from '#server/lib/language.js';

const MARKER: Record<TLanguage, string> = { en: '[CONVERSATION_COMPLETE]', es: '[CONVERSACIÓN_COMPLETADA]' };

/**
 * The system prompt: the workflow's own instructions, then the rules every Flujo chat follows. The marker
 * is how the client knows the conversation is over, so the instruction about it comes last and is explicit.
 */
export function chatSystemPrompt(
  workflow: { name: TBilingual; aiPrompt: string | null },
  language: TLanguage,
  final = false,
): string {
  const name = workflow.name[language] || workflow.name.en || workflow.name.es;
  const instructions = workflow.aiPrompt?.trim() || 'Collect what the user needs from this workflow.';
  return [
    instructions,
    '',
    '---',
    `You are the assistant of the workflow "${name}" on Flujo. Your job is to collect, in a short`,
    'conversation, the information this workflow needs. Ask one question at a time and keep replies brief.',
    `Always answer in ${LANGUAGE_NAME[language]}, whatever language these instructions are written in.`,
    'When you have everything you need, reply with a short summary of what you collected and end that reply',
    `with the marker ${MARKER[language]} (exactly, with the brackets). Never write the marker before then.`,
    // At the run's message limit the person cannot answer again, so a question now would strand the run.
    ...(final
      ? [
          'This is the last message this conversation allows: do not ask anything more. Reply now with a short',
          `summary of what you have collected and end it with the marker ${MARKER[language]}.`,
        ]
      : []),
  ].join('\n');
}

/** A reply to the run's last allowed message, ending the conversation even if the model forgot the marker. */
export function withClosingMarker(reply: string, language: TLanguage): string {
  return splitCompletionMarker(reply).done ? reply : `${reply.trim()} ${MARKER[language]}`;
}
