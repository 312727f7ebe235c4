import { splitCompletionMarker } from '#shared/contract/chat';
import { ApiError } from '#web/lib/api-client';

/**
 * A chat bubble. The server keeps the conversation itself (it sends the model its own transcript and makes
 * the workflow's answers from it), so bubbles are only shown: each call sends just the new message.
 */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
  /** A reply of the built-in demo assistant: labelled so on screen, never in the text itself. */
  demo?: boolean;
}

export interface RunResponse {
  question: string;
  answer: string | string[];
}

/** An assistant reply read for the completion marker; a reply that was only the marker becomes the thank-you text. */
export function readAssistantReply(content: string, thanks: string): { done: boolean; text: string } {
  const { done, text } = splitCompletionMarker(content);
  return { done, text: done && !text ? thanks : text };
}

/** The message-length limit a refused chat message exceeded (the server's `details.limit`), or null. */
export function messageLimitOf(err: unknown): number | null {
  if (!(err instanceof ApiError) || err.code !== 'VALIDATION_ERROR') return null;
  const limit = (err.body as { details?: { limit?: unknown } } | null)?.details?.limit;
  return typeof limit === 'number' ? limit : null;
}

/** The per-run message limit a refused chat message ran into (a 409 with the server's `details.limit`), or null. */
export function conversationLimitOf(err: unknown): number | null {
  if (!(err instanceof ApiError) || err.code !== 'CONFLICT') return null;
  const limit = (err.body as { details?: { limit?: unknown } } | null)?.details?.limit;
  return typeof limit === 'number' ? limit : null;
}

/** From how many messages left the composer starts counting down. */
export const REMAINING_SHOWN_FROM = 3;
