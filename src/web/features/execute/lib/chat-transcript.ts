import { splitCompletionMarker } from '../../../../shared/contract/chat';

/** A chat bubble. `local` marks texts the app wrote itself (the apology after a failure): never sent anywhere. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
  local?: boolean;
}

export interface RunResponse {
  question: string;
  answer: string | string[];
}

/** What /api/chat receives: the conversation after the welcome message, without the app's own notes. */
export function chatRequestMessages(
  turns: ChatTurn[],
): Array<{ role: 'user' | 'assistant'; content: string }> {
  return turns
    .slice(1)
    .filter((turn) => !turn.local)
    .map(({ role, content }) => ({ role, content }));
}

/** An assistant reply read for the completion marker; a reply that was only the marker becomes the thank-you text. */
export function readAssistantReply(content: string, thanks: string): { done: boolean; text: string } {
  const { done, text } = splitCompletionMarker(content);
  return { done, text: done && !text ? thanks : text };
}

/** The webhook's responses for a chat: each user message answers the assistant message before it, in order. */
export function chatResponses(turns: ChatTurn[]): RunResponse[] {
  const responses: RunResponse[] = [];
  let lastQuestion = '';
  for (const turn of turns) {
    if (turn.local) continue;
    if (turn.role === 'assistant') lastQuestion = turn.content;
    else responses.push({ question: lastQuestion, answer: turn.content });
  }
  return responses;
}
