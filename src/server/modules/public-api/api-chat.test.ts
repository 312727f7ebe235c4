import { describe, expect, it } from 'vitest';
import type { TApiChatReply, TApiRunStarted } from '#shared/contract/public-api.js';
import { withConfig } from '#server/test/test-data.js';
import { expireOverdueRuns } from '../executions/sweeper.js';
import {
  addChatWorkflow,
  addWorkflow,
  apiRequest,
  balanceOf,
  ledgerRowsOfRun,
  newApiKey,
  runRow,
  signUpUser,
  startRun,
  useRunsWorld,
} from '../executions/testing/fixtures.js';

// Chat workflows over the public API, answered by the scripted assistant (no LLM configured), whose replies
// are known in advance; the workflow service is a real server on loopback.
const w = useRunsWorld({ DEMO_CHAT_WORD_MS: '1' });

/** Without a body a GET, with one a JSON POST. */
const call = (key: string, url: string, body?: unknown, headers?: Record<string, string>) =>
  apiRequest(w, key, body === undefined ? 'GET' : 'POST', url, body, headers);

async function person() {
  const user = await signUpUser(w.t);
  return { ...user, key: await newApiKey(user.client, { name: 'chat' }) };
}

describe('chat runs over /api/v1', () => {
  it('starts a conversation (charged at the first message, like the web), talks it through and submits the run with the transcript', async () => {
    const workflow = await addChatWorkflow(w);
    const { id, key } = await person();
    const started = await call(key, '/api/v1/runs', { workflowId: workflow.id, lang: 'en' });
    expect(started.statusCode).toBe(201);
    const run = started.json<TApiRunStarted>();
    expect(run).toMatchObject({
      status: 'pending',
      creditsUsed: 0,
      welcomeMessage: 'Hi! What are we celebrating?',
    });
    expect(await balanceOf(w, id)).toBe(5);

    const say = (content: string) => call(key, `/api/v1/runs/${run.id}/messages`, { content, wait: 10 });
    const first = await say('A birthday');
    expect(first.statusCode).toBe(200);
    expect(first.json<TApiChatReply>()).toMatchObject({
      content: 'Got it. Whose birthday is it?',
      done: false,
      remaining: 39,
      run: { id: run.id, status: 'pending', creditsUsed: 1 },
    });
    expect(await balanceOf(w, id)).toBe(4);
    expect((await say('My sister Ana')).json<TApiChatReply>().done).toBe(false);
    expect(await ledgerRowsOfRun(w, run.id, 'usage')).toHaveLength(1);

    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: 'Party planned' } }));
    const called = w.service.callFor(run.id);
    const last = await say('About 20');
    expect(last.statusCode).toBe(200);
    const reply = last.json<TApiChatReply>();
    expect(reply.done).toBe(true);
    expect(reply.content).toContain('3. About 20');
    expect(reply.content).not.toContain('[CONVERSATION_COMPLETE]');
    expect(reply.run).toMatchObject({ status: 'completed', outputData: 'Party planned' });
    // The transcript the workflow receives holds what was said: the demo assistant's label is the screen's.
    expect((await called).body.responses).toEqual([
      { question: 'Hi! What are we celebrating?', answer: 'A birthday' },
      { question: 'Got it. Whose birthday is it?', answer: 'My sister Ana' },
      { question: 'Got it. How many guests are coming?', answer: 'About 20' },
    ]);
    expect(await balanceOf(w, id)).toBe(4);

    // The conversation is over: another message is refused and nothing more is charged.
    const after = await say('One more thing');
    expect(after.statusCode).toBe(409);
    expect(after.json()).toMatchObject({ code: 'CONFLICT' });
  });

  it('streams a reply as server-sent events with Accept: text/event-stream', async () => {
    const workflow = await addChatWorkflow(w);
    const { key } = await person();
    const run = (
      await call(key, '/api/v1/runs', { workflowId: workflow.id, lang: 'es' })
    ).json<TApiRunStarted>();
    expect(run.welcomeMessage).toBe('¡Hola! ¿Qué celebramos?');
    const res = await call(
      key,
      `/api/v1/runs/${run.id}/messages`,
      { content: 'Un cumpleaños' },
      { accept: 'text/event-stream' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const events = res.body
      .split('\n\n')
      .filter(Boolean)
      .map((block) => ({
        event: /^event: (.*)$/m.exec(block)?.[1],
        data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}') as Record<string, unknown>,
      }));
    const text = events
      .filter((e) => e.event === 'delta')
      .map((e) => String(e.data.text))
      .join('');
    // The run was started in Spanish, so the assistant answers in Spanish unless told otherwise.
    expect(text).toBe('Entendido. ¿Qué te gustaría conseguir con este workflow?');
    expect(events.filter((e) => e.event === 'delta').length).toBeGreaterThan(3);
    expect(events.at(-1)).toMatchObject({
      event: 'done',
      data: { content: text, done: false, remaining: 39, run: { id: run.id, status: 'pending' } },
    });
  });

  it('refuses with answers, and refuses messages to runs that are not your pending chats, in your language', async () => {
    const workflow = await addChatWorkflow(w);
    const owner = await person();
    const other = await person();
    const withAnswers = await call(owner.key, '/api/v1/runs', { workflowId: workflow.id, answers: { a: 1 } });
    expect(withAnswers.statusCode).toBe(400);
    expect(await balanceOf(w, owner.id)).toBe(5);

    const run = (await call(owner.key, '/api/v1/runs', { workflowId: workflow.id })).json<TApiRunStarted>();
    const url = `/api/v1/runs/${run.id}/messages`;
    const stranger = await call(other.key, url, { content: 'hi' }, { 'accept-language': 'es' });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toMatchObject({ code: 'NOT_FOUND', error: expect.stringMatching(/ejecución/i) });
    const unknown = await call(owner.key, '/api/v1/runs/00000000-0000-4000-8000-000000000000/messages', {
      content: 'hi',
    });
    expect(unknown.statusCode).toBe(404);

    for (const body of [
      {},
      { content: '' },
      { content: 5 },
      { content: 'x'.repeat(8001) },
      { content: 'hi', lang: 'fr' },
    ]) {
      const bad = await call(owner.key, url, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    const long = await call(owner.key, url, { content: 'x'.repeat(2001) }, { 'accept-language': 'es' });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({
      code: 'VALIDATION_ERROR',
      error: 'Un mensaje puede tener como máximo 2000 caracteres',
      key: 'chatMessageTooLong',
      params: { max: 2000 },
      details: { fields: [{ field: 'content', message: 'at most 2000 characters' }], limit: 2000 },
    });
    expect((await runRow(w, run.id)).chatMessageCount).toBe(0);

    const survey = await addWorkflow(w);
    const surveyRun = await startRun(owner.client, survey.id);
    const notAChat = await call(owner.key, `/api/v1/runs/${surveyRun}/messages`, { content: 'hi' });
    expect(notAChat.statusCode).toBe(409);
    expect(await call(owner.key, url, { content: 'hi' }, { authorization: 'Bearer flj_nope' })).toMatchObject(
      {
        statusCode: 401,
      },
    );
  });

  it('stops at the run allowance, as the web chat does', async () => {
    await withConfig(w.t, 'chat_max_messages', 1, async () => {
      const workflow = await addChatWorkflow(w);
      const { key } = await person();
      const run = (await call(key, '/api/v1/runs', { workflowId: workflow.id })).json<TApiRunStarted>();
      w.service.handle(() => ({ status: 202, body: { accepted: true } }));
      const only = await call(key, `/api/v1/runs/${run.id}/messages`, { content: 'A birthday' });
      // The last allowed message wraps up: the reply ends the conversation and the run goes to the workflow.
      expect(only.json<TApiChatReply>()).toMatchObject({
        done: true,
        remaining: 0,
        run: { status: 'running' },
      });
      const more = await call(key, `/api/v1/runs/${run.id}/messages`, { content: 'More' });
      expect(more.statusCode).toBe(409);
    });
  });

  it('replays an Idempotency-Key on a chat start: the same run and welcome, charged nothing', async () => {
    const workflow = await addChatWorkflow(w);
    const { id, key } = await person();
    const headers = { 'idempotency-key': 'chat-once-1' };
    const a = await call(key, '/api/v1/runs', { workflowId: workflow.id }, headers);
    const b = await call(key, '/api/v1/runs', { workflowId: workflow.id }, headers);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.json<TApiRunStarted>()).toMatchObject({
      id: a.json<TApiRunStarted>().id,
      welcomeMessage: a.json<TApiRunStarted>().welcomeMessage,
    });
    expect(await balanceOf(w, id)).toBe(5);
  });
});

describe('what a chat over /api/v1 costs, and when (decision 164)', () => {
  const say = (key: string, runId: string, content: string, headers?: Record<string, string>) =>
    call(key, `/api/v1/runs/${runId}/messages`, { content, wait: 10 }, headers);
  const open = async (key: string, workflowId: string) =>
    (await call(key, '/api/v1/runs', { workflowId })).json<TApiRunStarted>();

  it('a conversation left before its first message costs nothing; left after it, it keeps its one charge', async () => {
    const workflow = await addChatWorkflow(w, { creditsPerExecution: 2 });
    const { id, key } = await person();
    const untouched = await open(key, workflow.id);
    const talked = await open(key, workflow.id);
    expect(await balanceOf(w, id)).toBe(5);
    expect((await say(key, talked.id, 'A birthday')).statusCode).toBe(200);
    expect((await say(key, talked.id, 'My sister Ana')).statusCode).toBe(200);
    expect(await balanceOf(w, id)).toBe(3);
    expect(await ledgerRowsOfRun(w, talked.id, 'usage')).toHaveLength(1);

    w.t.clock.advance(16 * 60_000);
    try {
      await expireOverdueRuns(w.t.deps);
    } finally {
      w.t.clock.reset();
    }
    expect(await runRow(w, untouched.id)).toMatchObject({ status: 'expired', creditsUsed: 0 });
    expect(await ledgerRowsOfRun(w, untouched.id, 'usage')).toHaveLength(0);
    expect(await runRow(w, talked.id)).toMatchObject({ status: 'expired', creditsUsed: 2 });
    expect(await ledgerRowsOfRun(w, talked.id, 'refund')).toHaveLength(0);
    expect(await balanceOf(w, id)).toBe(3);
  });

  it('bounds the conversations opened and not yet spoken in (open_runs_per_user), in the reader language', async () => {
    await withConfig(w.t, 'open_runs_per_user', 2, async () => {
      const workflow = await addChatWorkflow(w);
      const { key } = await person();
      const first = await open(key, workflow.id);
      await open(key, workflow.id);
      const third = await call(key, '/api/v1/runs', { workflowId: workflow.id }, { 'accept-language': 'es' });
      expect(third.statusCode).toBe(409);
      expect(third.json()).toMatchObject({
        code: 'CONFLICT',
        key: 'tooManyUnspokenChats',
        error:
          'Tienes 2 conversaciones iniciadas por la API sin ningún mensaje: envía un mensaje en alguna o espera a que caduquen',
      });
      // Spoken in (and so paid for), the first no longer counts.
      expect((await say(key, first.id, 'A birthday')).statusCode).toBe(200);
      expect((await call(key, '/api/v1/runs', { workflowId: workflow.id })).statusCode).toBe(201);
    });
  });

  it('charges once when two first messages arrive together', async () => {
    const workflow = await addChatWorkflow(w, { creditsPerExecution: 2 });
    const { id, key } = await person();
    const run = await open(key, workflow.id);
    const both = await Promise.all([say(key, run.id, 'A birthday'), say(key, run.id, 'A wedding')]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await ledgerRowsOfRun(w, run.id, 'usage')).toHaveLength(1);
    expect(await runRow(w, run.id)).toMatchObject({ creditsUsed: 2, chatMessageCount: 2 });
    expect(await balanceOf(w, id)).toBe(3);
  });

  it('refunds a submitted chat whose workflow fails, once', async () => {
    const workflow = await addChatWorkflow(w, { creditsPerExecution: 2 });
    const { id, key } = await person();
    const run = await open(key, workflow.id);
    await say(key, run.id, 'A birthday');
    await say(key, run.id, 'My sister Ana');
    expect(await balanceOf(w, id)).toBe(3);
    w.service.handle(() => ({ status: 200, body: { status: 'failed', error_message: 'Out of cake' } }));
    const last = await say(key, run.id, 'About 20');
    expect(last.json<TApiChatReply>()).toMatchObject({ done: true, run: { status: 'failed' } });
    expect(await ledgerRowsOfRun(w, run.id, 'refund')).toHaveLength(1);
    expect(await balanceOf(w, id)).toBe(5);
  });

  it('refuses a start the balance does not cover, and a first message it no longer covers, changing nothing', async () => {
    const workflow = await addChatWorkflow(w, { creditsPerExecution: 3 });
    const { id, key } = await person();
    const pricey = await addChatWorkflow(w, { creditsPerExecution: 6 });
    const refused = await call(key, '/api/v1/runs', { workflowId: pricey.id }, { 'accept-language': 'es' });
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      error: expect.stringMatching(/créditos/i),
    });

    const first = await open(key, workflow.id);
    const second = await open(key, workflow.id);
    expect((await say(key, first.id, 'A birthday')).statusCode).toBe(200);
    expect(await balanceOf(w, id)).toBe(2);
    const broke = await say(key, second.id, 'A wedding', { 'accept-language': 'en' });
    expect(broke.statusCode).toBe(402);
    expect(broke.json()).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { required: 3, balance: 2 },
    });
    expect(await runRow(w, second.id)).toMatchObject({
      status: 'pending',
      creditsUsed: 0,
      chatMessageCount: 0,
      inputData: null,
    });
    expect(await balanceOf(w, id)).toBe(2);
  });

  it("charges the first message under the key's monthly limit, and refuses past it with 402 SPENDING_LIMIT", async () => {
    const workflow = await addChatWorkflow(w, { creditsPerExecution: 2 });
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client, { name: 'capped', monthlyCreditLimit: 3 });
    const first = await open(key, workflow.id);
    const second = await open(key, workflow.id);
    expect((await say(key, first.id, 'A birthday')).statusCode).toBe(200);
    const keys = (await user.client.get('/api/account/api-keys')).json<{
      keys: { name: string; spentThisMonth: number }[];
    }>();
    expect(keys.keys.find((k) => k.name === 'capped')?.spentThisMonth).toBe(2);

    const capped = await say(key, second.id, 'A wedding', { 'accept-language': 'es' });
    expect(capped.statusCode).toBe(402);
    expect(capped.json()).toMatchObject({ code: 'SPENDING_LIMIT', details: { required: 2, remaining: 1 } });
    expect(await runRow(w, second.id)).toMatchObject({ creditsUsed: 0, chatMessageCount: 0 });
    expect(await balanceOf(w, user.id)).toBe(3);
    // A start the key's month no longer covers is refused as well, before anything is opened.
    const start = await call(key, '/api/v1/runs', { workflowId: workflow.id });
    expect(start.statusCode).toBe(402);
    expect(start.json()).toMatchObject({ code: 'SPENDING_LIMIT' });
  });
});

describe('OpenAPI for chat runs', () => {
  it('documents the message operation with its id, key, responses and an example', async () => {
    const res = await w.t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, Record<string, Record<string, unknown>>> }>();
    const operation = doc.paths['/api/v1/runs/{id}/messages']?.post;
    expect(operation).toMatchObject({ operationId: 'sendRunMessage', security: [{ apiKey: [] }] });
    const responses = operation?.responses as Record<string, { description?: string; content?: unknown }>;
    expect(responses['200']?.description).toContain("The assistant's reply");
    expect(JSON.stringify(responses['200']?.content)).toContain('How many guests are coming?');
    expect(responses['409']?.description).toContain('Not a pending chat run');
  });
});
