import { ZChatRequest, ZChatResponse } from '#shared/contract/chat.js';
import { errorAnswers } from '#server/lib/errors.js';
import { llmRateLimit } from '#server/plugins/llm-rate-limit.js';
import { requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { acceptChatMessage, doneEvent, sendReplyAsEvents, wantsEventStream } from './service.js';

/** Chat replies a person may ask for per minute: far above typing speed, well below a script's. */
const CHAT_REQUESTS_PER_MINUTE = 20;

/** POST /api/chat. Mounted at /api. */
export async function chatRoutes(app: App, deps: AppDeps): Promise<void> {
  app.post(
    '/chat',
    {
      onRequest: llmRateLimit(deps, 'chat', CHAT_REQUESTS_PER_MINUTE),
      schema: {
        tags: ['chat'],
        summary:
          "The assistant's next reply in a pending chat run (may end with the completion marker). The server " +
          "keeps the conversation: only the last message, the user's new one, is read.",
        description:
          'With `Accept: text/event-stream` the reply comes as server-sent events while the model writes it: ' +
          '`delta` (`{ text }`, never the completion marker), then `done` (`{ content, done, remaining }`) or ' +
          '`error` (`{ code, error }`; nothing of the reply is kept). Refusals come before the stream, as JSON. ' +
          'The first message pays for the run (402 INSUFFICIENT_CREDITS, `details: { required, balance }`, ' +
          'changes nothing); a conversation left after that keeps its charge.',
        body: ZChatRequest,
        response: {
          200: ZChatResponse,
          ...errorAnswers(400, 401, 402, 404, 409, 429, 502),
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const pending = await acceptChatMessage(deps, user.id, request.body);
      if (!wantsEventStream(request)) return pending.complete();
      await sendReplyAsEvents(request, reply, pending, async (whole) => doneEvent(whole));
      return reply;
    },
  );
}
