import { z } from 'zod';
import { splitCompletionMarker } from '#shared/contract/chat.js';

/**
 * A chat run's conversation as the server keeps it: the welcome message the person saw, then every message
 * the server accepted from them and every reply the assistant gave, in order. Only the server writes it, so
 * the assistant's side is always what the assistant really said. It lives in the run's input_data while the
 * run is pending (null until the first exchange); completing the run replaces it with the responses made from
 * it, the shape the webhook contract sends.
 */
export interface TranscriptTurn {
  role: 'user' | 'assistant';
  content: string;
}

const ZTranscript = z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() }));

/** The transcript stored on a pending run ([] before the first exchange). */
export function readTranscript(stored: unknown): TranscriptTurn[] {
  if (stored === null || stored === undefined) return [];
  const parsed = ZTranscript.safeParse(stored);
  // Only chat writes input_data while a run is pending, so anything else is a bug, not bad input.
  if (!parsed.success) throw new Error('a pending chat run holds something other than a transcript');
  return parsed.data;
}

/** A chat turn as the webhook receives it: the assistant's question and the person's answer. */
export interface ChatResponse {
  question: string;
  answer: string;
}

/**
 * The webhook's responses for a chat: each user message answers the assistant message before it, in order
 * (the webhook contract's `{ question, answer }` pairs, docs/webhook-contract.md). The completion marker is the app's signal, not part of a question.
 */
export function transcriptResponses(turns: TranscriptTurn[]): ChatResponse[] {
  const responses: ChatResponse[] = [];
  let question = '';
  for (const turn of turns) {
    if (turn.role === 'assistant') question = splitCompletionMarker(turn.content).text;
    else responses.push({ question, answer: turn.content });
  }
  return responses;
}
