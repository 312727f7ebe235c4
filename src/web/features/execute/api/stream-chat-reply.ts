import type { TChatRequest } from '#shared/contract/chat';
import { isErrorCode } from '#shared/contract/errors';
import { api, ApiError } from '#web/lib/api-client';

/** The assistant's whole reply (completion marker included) and the messages the run still allows. */
export interface ChatReply {
  content: string;
  remaining: number;
}

/**
 * Asks the workflow's assistant for its next message as server-sent events: `onText` gets each new piece of
 * the reply as it is written (never the completion marker); the promise settles with the whole reply once it
 * is over. A refusal before the reply starts, or an `error` event, throws an ApiError; aborting `signal` stops
 * the reply (the server then keeps nothing of it).
 */
export async function streamChatReply(
  body: TChatRequest,
  { signal, onText }: { signal: AbortSignal; onText(text: string): void },
): Promise<ChatReply> {
  const res = await api.stream('/api/chat', { body, headers: { accept: 'text/event-stream' }, signal });
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream') || !res.body) {
    // Something between the browser and the server answered at once: the same reply, in one piece.
    const whole = (await res.json()) as ChatReply;
    return whole;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: ?(.*)$/m.exec(block)?.[1] ?? 'message';
      const data = JSON.parse(/^data: ?(.*)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>;
      if (event === 'delta' && typeof data.text === 'string') onText(data.text);
      if (event === 'done') {
        await reader.cancel().catch(() => undefined);
        return { content: String(data.content ?? ''), remaining: Number(data.remaining ?? 0) };
      }
      if (event === 'error') {
        const message = typeof data.error === 'string' ? data.error : 'Request failed';
        throw new ApiError(message, 502, isErrorCode(data.code) ? data.code : undefined, data);
      }
    }
  }
  // The connection ended without a verdict: the reply was not kept, as with an error.
  throw new TypeError('The reply was cut off');
}
