import { LlmError, type LlmCompletionRequest, type LlmProvider } from './types.js';

export interface OpenAiCompatibleOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama); without a trailing slash. */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** Per call; a slow model should not hold a user's chat forever. */
  timeoutMs?: number;
}

export const DEFAULT_LLM_TIMEOUT_MS = 60_000;

interface ChatCompletionAnswer {
  choices?: Array<{ message?: { content?: unknown } }>;
}

/**
 * Talks to any server that speaks OpenAI's chat-completions protocol (OpenAI, Ollama, vLLM, LM Studio,
 * OpenRouter). Errors name the status and the server's own message, never the key.
 */
export function createOpenAiCompatibleProvider(options: OpenAiCompatibleOptions): LlmProvider {
  const url = `${options.baseUrl.replace(/\/$/, '')}/chat/completions`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  return {
    async complete({ system, messages, temperature }: LlmCompletionRequest): Promise<string> {
      const body = {
        model: options.model,
        messages: [{ role: 'system', content: system }, ...messages],
        temperature: temperature ?? 0.7,
        stream: false,
      };
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
          throw new LlmError(`The language model did not answer within ${timeoutMs / 1000} s`, 'timeout');
        }
        throw new LlmError('The language model could not be reached', 'network');
      }
      const text = await res.text().catch(() => '');
      if (!res.ok) {
        throw new LlmError(
          `The language model answered ${res.status}${describeServerError(text)}`.slice(0, 500),
          'http',
        );
      }
      let parsed: ChatCompletionAnswer;
      try {
        parsed = JSON.parse(text) as ChatCompletionAnswer;
      } catch {
        throw new LlmError('The language model answered something that is not JSON', 'invalid-response');
      }
      const content = parsed.choices?.[0]?.message?.content;
      if (typeof content !== 'string' || content.trim() === '') {
        throw new LlmError('The language model answered without any text', 'invalid-response');
      }
      return content.trim();
    },
  };
}

/** The error message of an OpenAI-style error body (`{ error: { message } }`), if there is one. */
function describeServerError(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string };
    const message = typeof body.error === 'string' ? body.error : body.error?.message;
    return typeof message === 'string' && message ? `: ${message}` : '';
  } catch {
    return '';
  }
}
