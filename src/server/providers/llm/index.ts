import type { Config } from '#server/config.js';
import { createOpenAiCompatibleProvider } from './openai-compatible.js';
import type { LlmProvider } from './types.js';

export { createScriptedAssistant } from './scripted-assistant.js';
export { LlmError, type LlmProvider } from './types.js';

/** The configured LLM, or undefined when LLM_BASE_URL is not set (chat then uses the scripted assistant). */
export function configuredLlm(config: Config): LlmProvider | undefined {
  if (!config.llm) return undefined;
  return createOpenAiCompatibleProvider(config.llm);
}
