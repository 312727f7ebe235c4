import type { FastifyReply, FastifyRequest } from 'fastify';
import { splitCompletionMarker } from '#shared/contract/chat.js';
import { errorText } from '#shared/i18n/errors.js';
import { AppError } from '#server/lib/errors.js';
import { openEventStream } from '#server/lib/event-stream.js';
import { requestLanguage } from '#server/lib/language.js';
import { createMarkerFilter } from './marker-filter.js';
import type { ChatReply, PendingChatReply } from './types.js';

/** Whether the caller asked for the reply as server-sent events rather than one JSON answer. */
export function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').toLowerCase().includes('text/event-stream');
}

/** The `done` event of a chat reply: the whole reply, whether it ended the conversation, what is left. */
export function doneEvent(reply: ChatReply): { content: string; done: boolean; remaining: number } {
  return {
    content: reply.content,
    done: splitCompletionMarker(reply.content).done,
    remaining: reply.remaining,
  };
}

/**
 * Sends an accepted message's reply as server-sent events while the model writes it: `delta` events
 * (`{ text }`, the completion marker never among them), then `done` (what `finish` makes of the whole reply)
 * or `error` (`{ code, error }`, in the reader's language; nothing of the reply was kept). A reader who goes
 * away stops the model call. Everything that can be refused was refused before (acceptChatMessage), as an
 * ordinary error answer: once this starts, the status is 200.
 */
export async function sendReplyAsEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  pending: PendingChatReply,
  finish: (reply: ChatReply) => Promise<object>,
  stop?: AbortSignal,
): Promise<void> {
  const res = openEventStream(reply);
  // The response closes before it was ended only when the reader went away (or the server is closing).
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableEnded) gone.abort();
  });
  const onStop = () => gone.abort();
  stop?.addEventListener('abort', onStop, { once: true });
  if (stop?.aborted) gone.abort();
  const send = (event: string, data: object) => {
    if (!res.writableEnded && !res.destroyed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };

  const filter = createMarkerFilter();
  const streaming = pending.stream(gone.signal, (piece) => {
    const text = filter.push(piece);
    if (text) send('delta', { text });
  });
  // The model is asked first; the reader gets the stream's headers while it thinks (or with the first words).
  setImmediate(() => {
    if (!res.headersSent && !res.destroyed) res.flushHeaders();
  });
  try {
    const whole = await streaming;
    const rest = filter.flush();
    if (rest) send('delta', { text: rest });
    send('done', await finish(whole));
  } catch (err) {
    if (!gone.signal.aborted) {
      const language = requestLanguage(request);
      if (err instanceof AppError) {
        const params = err.paramsIn(language);
        send('error', {
          code: err.code,
          key: err.textKey,
          ...(params ? { params } : {}),
          error: err.messageIn(language),
        });
      } else {
        request.log.error({ err }, 'streamed chat reply failed');
        send('error', {
          code: 'INTERNAL_ERROR',
          key: 'default',
          error: errorText(language, 'INTERNAL_ERROR', 'default'),
        });
      }
    }
  } finally {
    stop?.removeEventListener('abort', onStop);
    res.end();
  }
}
