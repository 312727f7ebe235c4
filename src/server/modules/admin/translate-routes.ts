import { ZTranslateRequest, ZTranslateResponse } from '#shared/contract/translate.js';
import { llmRateLimit } from '#server/plugins/llm-rate-limit.js';
import type { App, AppDeps } from '#server/types.js';
import { translateText } from './translate.js';
import { errorAnswers } from '#server/lib/errors.js';

const TRANSLATE_REQUESTS_PER_MINUTE = 30;

/** POST /api/admin/translate (the LLM fills one language from the other). Mounted inside the admin scope. */
export async function translateRoutes(app: App, deps: AppDeps): Promise<void> {
  app.post(
    '/translate',
    {
      onRequest: llmRateLimit(deps, 'translate', TRANSLATE_REQUESTS_PER_MINUTE),
      schema: {
        tags: ['admin'],
        summary: 'Translate a text of the workflow form into the other language (needs an LLM)',
        body: ZTranslateRequest,
        response: { 200: ZTranslateResponse, ...errorAnswers(400, 401, 403, 429, 502, 503) },
      },
    },
    async (request) => ({ translation: await translateText(deps, request.body) }),
  );
}
