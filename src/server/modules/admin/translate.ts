import type { TLanguage } from '#shared/contract/common.js';
import type { TTranslateRequest } from '#shared/contract/translate.js';
import { AppError } from '#server/lib/errors.js';
import { LANGUAGE_NAME } from '#server/lib/language.js';
import { configuredLlm, LlmError } from '#server/providers/llm/index.js';
import type { AppDeps } from '#server/types.js';

/** The system prompt for the admin's translate button. */
function translateSystemPrompt(targetLanguage: TLanguage): string {
  return [
    `Translate the user's text into ${LANGUAGE_NAME[targetLanguage]}.`,
    'Keep the meaning, tone, formatting, line breaks and placeholders exactly.',
    'Answer with the translation only: no quotes, notes or explanations.',
  ].join(' ');
}

/** The admin's translate button; needs a real LLM (the scripted assistant cannot translate). */
export async function translateText(deps: AppDeps, request: TTranslateRequest): Promise<string> {
  const llm = configuredLlm(deps.config);
  if (!llm) {
    throw new AppError('NOT_CONFIGURED', 'translationNeedsLlm');
  }
  try {
    return await llm.complete({
      system: translateSystemPrompt(request.targetLanguage),
      messages: [{ role: 'user', content: request.text }],
      temperature: 0,
    });
  } catch (err) {
    if (err instanceof LlmError)
      throw new AppError('BAD_GATEWAY', { key: 'translationFailed', params: { reason: err.message } });
    throw err;
  }
}
