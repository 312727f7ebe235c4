import { ZChatRequest, ZChatResponse } from '#shared/contract/chat.js';
import { ZErrorBody } from '#shared/contract/errors.js';
import { perMinute, registerLlmRateLimit } from '#server/plugins/llm-rate-limit.js';
import { requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { replyInChat } from './service.js';

/** Chat replies a person may ask for per minute: far above typing speed, well below a script's. */
export const CHAT_REQUESTS_PER_MINUTE = 20;

/** POST /api/chat. Mounted at /api. */
export async function chatRoutes(app: App, deps: AppDeps): Promise<void> {
  await registerLlmRateLimit(app);
  app.post(
    '/chat',
    {
      config: perMinute(CHAT_REQUESTS_PER_MINUTE),
      schema: {
        tags: ['chat'],
        summary:
          "The assistant's next reply in a pending chat run (may end with the completion marker). The server " +
          "keeps the conversation: only the last message, the user's new one, is read.",
        body: ZChatRequest,
        response: {
          200: ZChatResponse,
          400: ZErrorBody,
          401: ZErrorBody,
          404: ZErrorBody,
          409: ZErrorBody,
          429: ZErrorBody,
          502: ZErrorBody,
        },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      return { content: await replyInChat(deps, user.id, request.body) };
    },
  );
}
