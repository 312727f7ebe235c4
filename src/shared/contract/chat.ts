import { z } from 'zod';
import { ZLanguage } from './common.js';

export const COMPLETION_MARKERS = [
  '[CONVERSATION_COMPLETE]',
  '[CONVERSACION_COMPLETADA]',
  '[CONVERSACIÓN_COMPLETADA]',
];
const MARKER_PATTERN = /\[(CONVERSATION_COMPLETE|CONVERSACI[OÓ]N_COMPLETADA)\]/gi;

/** Whether an assistant reply ends the conversation, and the reply with the marker stripped. */
export function splitCompletionMarker(content: string): { done: boolean; text: string } {
  const done = MARKER_PATTERN.test(content);
  MARKER_PATTERN.lastIndex = 0;
  return { done, text: content.replace(MARKER_PATTERN, '').trim() };
}

const ZChatMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string().max(8000),
});

/**
 * The server keeps each run's conversation itself: of `messages`, only the last entry is read, and it must be
 * the user's new message (at most `chat_max_message_chars` characters, a live setting). Clients send just that
 * message; the list stays a list so that clients which send the whole conversation keep working, up to the
 * length a conversation at the default `chat_max_messages` reaches.
 */
export const ZChatRequest = z.object({
  workflowId: z.uuid(),
  executionId: z.uuid().optional(),
  messages: z.array(ZChatMessage).min(1).max(100),
  language: ZLanguage,
});
export const ZChatResponse = z.object({
  content: z.string(),
  /**
   * User messages the run still allows (`chat_max_messages` less those sent). At 0 the reply has wrapped up and
   * carries the completion marker, so the client completes the run.
   */
  remaining: z.number().int().min(0),
});
export type TChatRequest = z.infer<typeof ZChatRequest>;
