import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { workflowExecutions } from '#server/db/schema.js';
import { startTestLlmServer, type TestLlmServer } from '#server/providers/llm/testing/test-llm-server.js';
import { buildTestApp, type TestApp } from '#server/test/harness.js';
import { addChatbotWorkflow, testAdminId } from '#server/test/test-data.js';
import {
  addChatWorkflow,
  signUpUser,
  startRun,
  startRunsWorld,
  type RunsWorld,
} from '../executions/testing/fixtures.js';
import type { TestClient } from '#server/test/client.js';

// Streamed replies travel over a real connection (the app listens on a loopback port) from a real HTTP
// server speaking the chat-completions streaming protocol, so what is checked is what a browser receives.
let llm: TestLlmServer;
let w: RunsWorld;
let scripted: TestApp;

beforeAll(async () => {
  llm = await startTestLlmServer();
  [w, scripted] = await Promise.all([
    startRunsWorld({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'party-model' }),
    buildTestApp({ DEMO_CHAT_WORD_MS: '1' }),
  ]);
});
afterAll(async () => {
  await w?.close();
  await scripted?.close();
  await llm?.close();
});
beforeEach(() => {
  llm.received.length = 0;
});

interface ServerEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Reads server-sent events off a response body, one at a time, as a browser's reader does. */
function eventReader(res: Response): { next(): Promise<ServerEvent | null> } {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next() {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = /^data: (.*)$/m.exec(block)?.[1] ?? '{}';
          return { event, data: JSON.parse(data) as Record<string, unknown> };
        }
        const chunk = await reader.read();
        if (chunk.done) return null;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
  };
}

async function readAll(events: { next(): Promise<ServerEvent | null> }): Promise<ServerEvent[]> {
  const all: ServerEvent[] = [];
  for (let e = await events.next(); e; e = await events.next()) all.push(e);
  return all;
}

/** POST /api/chat over HTTP as the web client sends it, asking for a stream. */
function chatOverHttp(
  client: TestClient,
  body: Record<string, unknown>,
  init: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(`${w.baseUrl}/api/chat`, {
    method: 'POST',
    headers: {
      origin: w.t.origin,
      cookie: client.cookie ?? '',
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...init.headers,
    },
    body: JSON.stringify(body),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

async function runState(runId: string) {
  const [row] = await w.t.database.db
    .select({ count: workflowExecutions.chatMessageCount, transcript: workflowExecutions.inputData })
    .from(workflowExecutions)
    .where(eq(workflowExecutions.id, runId));
  if (!row) throw new Error('no run');
  return row;
}

async function chatRun() {
  const workflow = await addChatWorkflow(w);
  const user = await signUpUser(w.t);
  const runId = await startRun(user.client, workflow.id);
  const say = (content: string) => ({
    workflowId: workflow.id,
    executionId: runId,
    messages: [{ role: 'user', content }],
    language: 'en',
  });
  return { workflow, user, runId, say };
}

const deltas = (events: ServerEvent[]) =>
  events.filter((e) => e.event === 'delta').map((e) => String(e.data.text));

describe('POST /api/chat streamed (Accept: text/event-stream)', () => {
  it('sends the first words before the model has finished, then the whole reply, and keeps the exchange', async () => {
    const { user, runId, say } = await chatRun();
    const release = llm.replyHeld(['Lovely! ', 'Whose birthday ', 'is it?']);
    const res = await chatOverHttp(user.client, say('A birthday'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = eventReader(res);

    // The model is held after its first piece: the reader already has it, and nothing is kept yet.
    expect(await events.next()).toEqual({ event: 'delta', data: { text: 'Lovely! ' } });
    expect(llm.received[0]?.body.stream).toBe(true);
    expect((await runState(runId)).transcript).toBeNull();
    release();

    const rest = await readAll(events);
    expect(deltas(rest).join('')).toBe('Whose birthday is it?');
    expect(rest.at(-1)).toEqual({
      event: 'done',
      data: { content: 'Lovely! Whose birthday is it?', done: false, remaining: 39 },
    });
    expect(await runState(runId)).toEqual({
      count: 1,
      transcript: [
        { role: 'assistant', content: 'Hi! What are we celebrating?' },
        { role: 'user', content: 'A birthday' },
        { role: 'assistant', content: 'Lovely! Whose birthday is it?' },
      ],
    });
  });

  it('never streams the completion marker, even split over pieces, and says in done that it was there', async () => {
    const { user, say } = await chatRun();
    llm.reply({
      kind: 'stream',
      pieces: ['All set: ', 'a party [for 20]. [CONV', 'ERSATION_COMP', 'LETE]'],
    });
    const events = await readAll(eventReader(await chatOverHttp(user.client, say('20 guests'))));
    const shown = deltas(events);
    expect(shown.join('').trim()).toBe('All set: a party [for 20].');
    expect(shown.some((d) => d.includes('CONV') || d.includes('COMPLETE'))).toBe(false);
    expect(events.at(-1)).toEqual({
      event: 'done',
      data: { content: 'All set: a party [for 20]. [CONVERSATION_COMPLETE]', done: true, remaining: 39 },
    });
  });

  it('ends with an error event in the reader language when the model fails mid-reply, keeping no half reply', async () => {
    const { user, runId, say } = await chatRun();
    llm.reply({ kind: 'content', content: 'Great, tell me more.' });
    await readAll(eventReader(await chatOverHttp(user.client, say('A birthday'))));
    const before = await runState(runId);
    expect(before.count).toBe(1);

    for (const end of ['error', 'drop'] as const) {
      llm.reply({ kind: 'stream', pieces: ['Half of ', 'a reply'], end });
      const res = await chatOverHttp(user.client, say('For 20 guests'), {
        headers: { 'accept-language': 'es' },
      });
      const events = await readAll(eventReader(res));
      expect(deltas(events).join('')).toBe('Half of a reply');
      const last = events.at(-1);
      expect(last?.event).toBe('error');
      expect(last?.data.code).toBe('BAD_GATEWAY');
      expect(String(last?.data.error)).toMatch(/^El asistente no está disponible: /);
      expect(await runState(runId)).toEqual(before);
    }
  });

  it('stops the model call when the reader goes away, and keeps nothing of the reply', async () => {
    const { user, runId, say } = await chatRun();
    const release = llm.replyHeld(['First words, ', 'never sent']);
    const reader = new AbortController();
    const abandoned = llm.nextAbandon();
    const events = eventReader(await chatOverHttp(user.client, say('A birthday'), { signal: reader.signal }));
    expect(await events.next()).toEqual({ event: 'delta', data: { text: 'First words, ' } });
    reader.abort();
    // The model's connection is closed by Flujo while the model is still holding the rest of the reply.
    await abandoned;
    release();
    // The message goes back to the allowance once the stopped reply is given up.
    await expect.poll(() => runState(runId)).toEqual({ count: 0, transcript: null });
    expect(llm.abandoned).toBeGreaterThan(0);
  });

  it('refuses before the stream starts as an ordinary JSON error with its status', async () => {
    const { user, runId, say } = await chatRun();
    const res = await chatOverHttp(user.client, say('x'.repeat(2001)));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { limit: 2000 } });
    const anonymous = await fetch(`${w.baseUrl}/api/chat`, {
      method: 'POST',
      headers: { origin: w.t.origin, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(say('hi')),
    });
    expect(anonymous.status).toBe(401);
    expect(llm.received).toHaveLength(0);
    expect((await runState(runId)).count).toBe(0);
  });

  it('answers JSON as before without the header, asking the model for a whole reply', async () => {
    const { user, say } = await chatRun();
    llm.reply({ kind: 'content', content: 'Whose birthday is it?' });
    const res = await user.client.post('/api/chat', say('A birthday'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ content: 'Whose birthday is it?', remaining: 39 });
    expect(llm.received[0]?.body.stream).toBe(false);
  });
});

describe('the scripted assistant streamed', () => {
  it('writes its reply word by word', async () => {
    const workflow = await createScriptedChat();
    const user = await signUpUser(scripted);
    const start = await user.client.post('/api/executions/start', { workflowId: workflow, language: 'es' });
    expect(start.statusCode).toBe(201);
    const res = await user.client.post(
      '/api/chat',
      { workflowId: workflow, messages: [{ role: 'user', content: 'Un cumpleaños' }], language: 'es' },
      { accept: 'text/event-stream' },
    );
    expect(res.headers['content-type']).toContain('text/event-stream');
    const blocks = res.body.split('\n\n').filter(Boolean);
    const events = blocks.map((b) => ({
      event: /^event: (.*)$/m.exec(b)?.[1],
      data: JSON.parse(/^data: (.*)$/m.exec(b)?.[1] ?? '{}') as Record<string, unknown>,
    }));
    const words = events.filter((e) => e.event === 'delta').map((e) => String(e.data.text));
    expect(words.slice(0, 3)).toEqual(['Entendido. ', '¿De ', 'quién ']);
    expect(words.join('')).toBe('Entendido. ¿De quién es el cumpleaños?');
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { done: false } });
  });
});

async function createScriptedChat(): Promise<string> {
  const row = await addChatbotWorkflow(scripted.database.db, await testAdminId(scripted), {
    aiPrompt: 'Ask: ¿De quién es el cumpleaños? ¿Cuántos invitados vendrán?',
  });
  return row.id;
}
