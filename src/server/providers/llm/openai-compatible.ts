import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { LlmError, type LlmCompletionRequest, type LlmProvider } from './types.js';

export interface OpenAiCompatibleOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama); without a trailing slash. */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** Per call; a slow model should not hold a user's chat forever. */
  timeoutMs?: number;
}

const DEFAULT_LLM_TIMEOUT_MS = 60_000;

interface ChatCompletionAnswer {
  choices?: Array<{ message?: { content?: unknown } }>;
}

/**
 * Talks to any server that speaks OpenAI's chat-completions protocol (OpenAI, Ollama, vLLM, LM Studio,
 * OpenRouter). Errors name the status and the server's own message, never the key. Requests go through
 * node:http(s), as webhooks do: fetch's streams cost about half a millisecond more before a streamed reply's
 * first words, on every message.
 */
export function createOpenAiCompatibleProvider(options: OpenAiCompatibleOptions): LlmProvider {
  const url = new URL(`${options.baseUrl.replace(/\/$/, '')}/chat/completions`);
  const transport = url.protocol === 'https:' ? https : http;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;

  const post = async (
    { system, messages, temperature }: LlmCompletionRequest,
    stream: boolean,
    signal: AbortSignal,
  ): Promise<IncomingMessage> => {
    const body = JSON.stringify({
      model: options.model,
      messages: [{ role: 'system', content: system }, ...messages],
      temperature: temperature ?? 0.7,
      stream,
    });
    let res: IncomingMessage;
    try {
      res = await new Promise<IncomingMessage>((resolve, reject) => {
        const req = transport.request(
          url,
          {
            method: 'POST',
            signal,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              accept: stream ? 'text/event-stream' : 'application/json',
              ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
            },
          },
          resolve,
        );
        req.on('error', reject);
        req.end(body);
      });
    } catch (err) {
      throw fetchFailure(err, signal, timeoutMs);
    }
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 299) {
      const text = await readText(res).catch(() => '');
      throw new LlmError(
        `The language model answered ${status}${describeServerError(text)}`.slice(0, 500),
        'http',
      );
    }
    return res;
  };

  return {
    async complete(request: LlmCompletionRequest): Promise<string> {
      const signal = AbortSignal.timeout(timeoutMs);
      const res = await post(request, false, signal);
      const text = await readText(res).catch(() => '');
      return contentOf(text);
    },

    async *stream(request: LlmCompletionRequest, stop: AbortSignal): AsyncIterable<string> {
      // One deadline for the whole reply, like a non-streamed call; the caller's signal stops it at once.
      const signal = AbortSignal.any([stop, AbortSignal.timeout(timeoutMs)]);
      const res = await post(request, true, signal);
      if (!String(res.headers['content-type'] ?? '').includes('text/event-stream')) {
        // A server that ignores `stream: true` answers the whole reply at once: that is one piece.
        yield contentOf(await readText(res).catch(() => ''));
        return;
      }
      const decoder = new TextDecoder();
      let buffer = '';
      let finished = false;
      let any = false;
      const chunks = res[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      try {
        while (!finished) {
          let chunk: IteratorResult<Buffer>;
          try {
            chunk = await chunks.next();
          } catch (err) {
            if (signal.aborted) throw fetchFailure(err, signal, timeoutMs);
            throw new LlmError(
              'The connection to the language model broke in the middle of the reply',
              'network',
            );
          }
          if (chunk.done) break;
          buffer += decoder.decode(chunk.value, { stream: true });
          // Events end with a blank line; a line ending may be \n or \r\n.
          let end: RegExpExecArray | null;
          while (!finished && (end = /\r?\n\r?\n/.exec(buffer))) {
            const event = buffer.slice(0, end.index);
            buffer = buffer.slice(end.index + end[0].length);
            const data = event
              .split(/\r?\n/)
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).replace(/^ /, ''))
              .join('\n');
            if (data === '') continue;
            if (data === '[DONE]') {
              finished = true;
              break;
            }
            const piece = deltaOf(data);
            if (piece.finished) finished = true;
            if (piece.content) {
              any = true;
              yield piece.content;
            }
          }
        }
      } finally {
        // Leaving early (an error, the caller stopped reading) must not leave the model writing; a finished
        // reply's rest (the end of the stream) is read, so the connection can serve the next message.
        if (finished) res.resume();
        else res.destroy();
      }
      if (!finished) {
        throw new LlmError('The language model stopped before finishing its reply', 'invalid-response');
      }
      if (!any) throw new LlmError('The language model answered without any text', 'invalid-response');
    },
  };
}

/** A whole answer's body as text. */
async function readText(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface ChatCompletionChunk {
  choices?: Array<{ delta?: { content?: unknown }; finish_reason?: unknown }>;
  error?: { message?: unknown } | string;
}

/** One streamed event's text, and whether it says the reply is over; an error event throws. */
function deltaOf(data: string): { content: string; finished: boolean } {
  let parsed: ChatCompletionChunk;
  try {
    parsed = JSON.parse(data) as ChatCompletionChunk;
  } catch {
    throw new LlmError('The language model streamed something that is not JSON', 'invalid-response');
  }
  if (parsed.error) {
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error.message;
    throw new LlmError(
      `The language model failed${typeof message === 'string' && message ? `: ${message}` : ''}`.slice(
        0,
        500,
      ),
      'http',
    );
  }
  const choice = parsed.choices?.[0];
  const content = choice?.delta?.content;
  return {
    content: typeof content === 'string' ? content : '',
    finished: typeof choice?.finish_reason === 'string' && choice.finish_reason !== '',
  };
}

/** The text of a whole (non-streamed) answer. */
function contentOf(text: string): string {
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
}

/** Why a call failed: the caller stopped it, its time ran out, or the server could not be reached. */
function fetchFailure(err: unknown, signal: AbortSignal, timeoutMs: number): Error {
  if (signal.aborted) {
    const reason = signal.reason as { name?: unknown } | undefined;
    if (reason?.name === 'TimeoutError') {
      return new LlmError(`The language model did not answer within ${timeoutMs / 1000} s`, 'timeout');
    }
    return new LlmError('The reply was stopped', 'aborted');
  }
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return new LlmError(`The language model did not answer within ${timeoutMs / 1000} s`, 'timeout');
  }
  return new LlmError('The language model could not be reached', 'network');
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
