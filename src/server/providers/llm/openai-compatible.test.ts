import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleProvider } from './openai-compatible.js';
import { startTestLlmServer, type TestLlmServer } from './testing/test-llm-server.js';
import { LlmError } from './types.js';

let llm: TestLlmServer;

beforeAll(async () => {
  llm = await startTestLlmServer();
});
afterAll(async () => {
  await llm.close();
});
beforeEach(() => {
  llm.received.length = 0;
});

describe('OpenAI-compatible provider', () => {
  it('posts the system prompt, the conversation, the model and the key, and returns the reply', async () => {
    llm.reply({ kind: 'content', content: '  Hello there!  ' });
    const provider = createOpenAiCompatibleProvider({
      baseUrl: llm.baseUrl,
      apiKey: 'sk-test-123',
      model: 'test-model',
    });
    const reply = await provider.complete({
      system: 'You are helpful.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello, what do you need?' },
        { role: 'user', content: 'A summary' },
      ],
      temperature: 0.2,
    });
    expect(reply).toBe('Hello there!');
    expect(llm.received).toHaveLength(1);
    const [request] = llm.received;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.authorization).toBe('Bearer sk-test-123');
    expect(request?.body.model).toBe('test-model');
    expect(request?.body.temperature).toBe(0.2);
    expect(request?.body.messages).toEqual([
      { role: 'system', content: 'You are helpful.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello, what do you need?' },
      { role: 'user', content: 'A summary' },
    ]);
  });

  it('sends no authorization header when no key is configured (local servers such as Ollama)', async () => {
    const provider = createOpenAiCompatibleProvider({ baseUrl: llm.baseUrl, apiKey: undefined, model: 'm' });
    await provider.complete({ system: 's', messages: [{ role: 'user', content: 'x' }] });
    expect(llm.received[0]?.authorization).toBeUndefined();
  });

  it("names the status and the server's message on an HTTP error, without the key", async () => {
    llm.reply({ kind: 'status', status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const provider = createOpenAiCompatibleProvider({
      baseUrl: llm.baseUrl,
      apiKey: 'sk-secret-value',
      model: 'm',
    });
    const error = await provider.complete({ system: 's', messages: [{ role: 'user', content: 'x' }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).message).toBe('The language model answered 401: Incorrect API key provided');
    expect((error as LlmError).message).not.toContain('sk-secret-value');
  });

  it('refuses an answer that is not JSON or has no text', async () => {
    const provider = createOpenAiCompatibleProvider({ baseUrl: llm.baseUrl, apiKey: undefined, model: 'm' });
    const ask = () => provider.complete({ system: 's', messages: [{ role: 'user', content: 'x' }] });
    llm.reply({ kind: 'raw', status: 200, text: '<html>proxy page</html>' });
    await expect(ask()).rejects.toThrow('not JSON');
    llm.reply({ kind: 'status', status: 200, body: { choices: [] } });
    await expect(ask()).rejects.toThrow('without any text');
  });

  it('gives up after its timeout', async () => {
    llm.reply({ kind: 'hang' });
    const provider = createOpenAiCompatibleProvider({
      baseUrl: llm.baseUrl,
      apiKey: undefined,
      model: 'm',
      timeoutMs: 200,
    });
    const error = await provider.complete({ system: 's', messages: [{ role: 'user', content: 'x' }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).reason).toBe('timeout');
  });

  it('reports an unreachable server as a network error', async () => {
    const provider = createOpenAiCompatibleProvider({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: undefined,
      model: 'm',
    });
    await expect(
      provider.complete({ system: 's', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow('could not be reached');
  });
});

describe('OpenAI-compatible provider, streamed', () => {
  const provider = () => createOpenAiCompatibleProvider({ baseUrl: llm.baseUrl, apiKey: 'sk-s', model: 'm' });
  const collect = async (signal = new AbortController().signal) => {
    const pieces: string[] = [];
    for await (const piece of provider().stream(
      { system: 's', messages: [{ role: 'user', content: 'x' }] },
      signal,
    ))
      pieces.push(piece);
    return pieces;
  };

  it('asks for a stream and yields the pieces in order', async () => {
    llm.reply({ kind: 'stream', pieces: ['One ', 'two ', 'three'] });
    expect(await collect()).toEqual(['One ', 'two ', 'three']);
    expect(llm.received[0]?.body.stream).toBe(true);
    expect(llm.received[0]?.authorization).toBe('Bearer sk-s');
  });

  it('reads a whole JSON answer as one piece when the server does not stream', async () => {
    llm.reply({
      kind: 'raw',
      status: 200,
      text: JSON.stringify({ choices: [{ message: { content: ' All. ' } }] }),
    });
    expect(await collect()).toEqual(['All.']);
  });

  it('fails on an error event, a cut stream and an HTTP error, naming no key', async () => {
    for (const end of ['error', 'drop'] as const) {
      llm.reply({ kind: 'stream', pieces: ['Half'], end });
      const error = await collect().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, end).toBeInstanceOf(LlmError);
    }
    llm.reply({ kind: 'status', status: 429, body: { error: { message: 'slow down' } } });
    await expect(collect()).rejects.toThrow('The language model answered 429: slow down');
  });

  it('stops reading and closes the connection when its signal aborts', async () => {
    const release = llm.replyHeld(['First ', 'never']);
    const stop = new AbortController();
    const abandoned = llm.nextAbandon();
    const pieces: string[] = [];
    const error = await (async () => {
      for await (const piece of provider().stream({ system: 's', messages: [] }, stop.signal)) {
        pieces.push(piece);
        stop.abort();
      }
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    await abandoned;
    release();
    expect(pieces).toEqual(['First ']);
    expect((error as LlmError).reason).toBe('aborted');
  });
});
