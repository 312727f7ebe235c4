import { answerCall, useRunsWorld } from '../executions/testing/fixtures.js';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { TApiRun, TApiWorkflow } from '#shared/contract/public-api.js';
import { apiKeys, userProfiles, workflowExecutions } from '#server/db/schema.js';
import { buildTestApp } from '#server/test/harness.js';
import { addSurveyWorkflow, withConfig } from '#server/test/test-data.js';
import type { AppDeps } from '#server/types.js';
import { authenticateApiKey } from '../apikeys/service.js';
import { deliverDueRuns } from '../executions/dispatch.js';
import { startRun } from '../executions/start.js';
import { CSV } from '../executions/testing/samples.js';
import {
  addChatWorkflow,
  addWorkflow,
  apiRequest,
  balanceOf,
  grantCredits,
  ledgerRowsOfRun,
  newApiKey,
  runRow,
  signUpUser,
} from '../executions/testing/fixtures.js';
import { startWorkflowService } from '../executions/testing/workflow-service.js';

const w = useRunsWorld();

const QUESTIONS = [
  { id: 'name', question: { es: '¿Nombre?', en: 'Name?' }, type: 'text' as const, options: [] },
  { id: 'age', question: { es: '¿Edad?', en: 'Age?' }, type: 'number' as const, options: [] },
  {
    id: 'tone',
    question: { es: '¿Tono?', en: 'Tone?' },
    type: 'select' as const,
    options: ['formal', 'casual'],
    optionLabels: { formal: { es: 'Formal', en: 'Formal' }, casual: { es: 'Cercano', en: 'Casual' } },
  },
  {
    id: 'extras',
    question: { es: '¿Extras?', en: 'Extras?' },
    type: 'checkbox' as const,
    options: ['a', 'b'],
  },
];
const GOOD = { name: 'Ana', age: 30, tone: 'casual', extras: ['b', 'a'] };

const call = (
  key: string,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
) => apiRequest(w, key, method, url, body, headers);

describe('/api/v1 workflows', () => {
  it('lists public active workflows in the language asked, with a survey as a JSON Schema', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS, creditsPerExecution: 2 });
    const hidden = await addWorkflow(w, { isPublic: false });
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client);
    const list = await call(key, 'GET', '/api/v1/workflows?lang=en');
    expect(list.statusCode).toBe(200);
    const workflows = list.json<{ workflows: TApiWorkflow[] }>().workflows;
    expect(workflows.some((x) => x.id === hidden.id)).toBe(false);
    const mine = workflows.find((x) => x.id === wf.id)!;
    expect(mine).toMatchObject({
      name: 'Summary',
      language: 'en',
      creditsPerExecution: 2,
      interactionType: 'survey',
    });
    expect(mine.inputSchema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 20000, description: 'Name?' },
        age: { type: 'number', description: 'Age?' },
        tone: { type: 'string', enum: ['formal', 'casual'], description: 'Tone?' },
        extras: {
          type: 'array',
          items: { type: 'string', enum: ['a', 'b'] },
          uniqueItems: true,
          description: 'Extras?',
        },
      },
      required: ['name', 'age', 'tone'],
      additionalProperties: false,
    });
    // The owner's profile language when none is asked.
    for (const language of ['es', 'en'] as const) {
      await user.client.patch('/api/account/profile', { language });
      const detail = await call(key, 'GET', `/api/v1/workflows/${wf.id}`);
      expect(detail.json()).toMatchObject({
        id: wf.id,
        language,
        name: language === 'es' ? 'Resumen' : 'Summary',
      });
    }
    expect((await call(key, 'GET', `/api/v1/workflows/${hidden.id}`)).statusCode).toBe(404);
  });
});

describe('POST /api/v1/runs', () => {
  it('starts, charges and dispatches a survey run, waiting for its result', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS, creditsPerExecution: 2 });
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client);
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: 'Hola, Ana' } }));
    const res = await call(key, 'POST', '/api/v1/runs', {
      workflowId: wf.id,
      answers: GOOD,
      wait: 10,
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(201);
    const run = res.json<TApiRun>();
    expect(run).toMatchObject({
      status: 'completed',
      outputType: 'text',
      outputData: 'Hola, Ana',
      creditsUsed: 2,
    });
    const sent = await w.service.callFor(run.id);
    expect(sent.body.responses).toEqual([
      { question: 'Name?', answer: 'Ana' },
      { question: 'Age?', answer: '30' },
      { question: 'Tone?', answer: 'Casual' },
      { question: 'Extras?', answer: ['a', 'b'] },
    ]);
    expect(await balanceOf(w, user.id)).toBe(3);
    expect(await ledgerRowsOfRun(w, run.id, 'usage')).toHaveLength(1);
    const [stored] = await w.t.database.db
      .select({ origin: workflowExecutions.origin })
      .from(workflowExecutions)
      .where(eq(workflowExecutions.id, run.id));
    expect(stored?.origin).toBe('api');
    expect((await call(key, 'GET', `/api/v1/runs/${run.id}`)).json()).toMatchObject({
      id: run.id,
      status: 'completed',
    });
    expect((await call(key, 'GET', '/api/v1/me')).json()).toMatchObject({ balance: 3, spentThisMonth: 2 });
    // Someone else's key does not see it.
    const other = await signUpUser(w.t);
    expect((await call(await newApiKey(other.client), 'GET', `/api/v1/runs/${run.id}`)).statusCode).toBe(404);
  });

  it('serves a file result with the key and streams events', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client);
    w.service.handle(() => ({
      status: 200,
      body: { status: 'completed', file_data: CSV.toString('base64'), filename: 'table.csv' },
    }));
    const run = (
      await call(key, 'POST', '/api/v1/runs', { workflowId: wf.id, answers: { q1: 'Ana' }, wait: 10 })
    ).json<TApiRun>();
    expect(run).toMatchObject({ status: 'completed', outputType: 'file', outputFilename: 'table.csv' });
    expect(run.resultUrl).toBe(`${w.baseUrl}/api/v1/runs/${run.id}/result`);
    const file = await fetch(run.resultUrl!, { headers: { authorization: `Bearer ${key}` } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(CSV)).toBe(true);
    expect((await fetch(run.resultUrl!)).status).toBe(401);
    // The cookie does not open it.
    expect((await user.client.get(`/api/v1/runs/${run.id}/result`)).statusCode).toBe(401);
    const events = await fetch(`${w.baseUrl}/api/v1/runs/${run.id}/events`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    expect(await events.text()).toContain('"status":"completed"');
  });

  it('refuses bad answers with the fields and charges nothing', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS });
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...GOOD, age: 'thirty' }, 'answers.age'],
      [{ ...GOOD, tone: 'rude' }, 'answers.tone'],
      [{ ...GOOD, extras: ['z'] }, 'answers.extras'],
      [{ age: 3, tone: 'formal' }, 'answers.name'],
      [{ ...GOOD, surprise: 1 }, 'answers.surprise'],
    ];
    for (const [answers, field] of cases) {
      const res = await call(key, 'POST', '/api/v1/runs', { workflowId: wf.id, answers });
      expect(res.statusCode, JSON.stringify(answers)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field }] } });
    }
    const chat = await addChatWorkflow(w);
    // A chat takes its answers as messages, never as a survey's answers.
    const chatWithAnswers = await call(key, 'POST', '/api/v1/runs', {
      workflowId: chat.id,
      answers: { q1: 'x' },
    });
    expect(chatWithAnswers.statusCode).toBe(400);
    expect(chatWithAnswers.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ field: 'answers' }] },
    });
    expect(await balanceOf(w, user.id)).toBe(5);
    expect(
      await w.t.database.db.select().from(workflowExecutions).where(eq(workflowExecutions.userId, user.id)),
    ).toEqual([]);
  });

  it('answers 402 INSUFFICIENT_CREDITS without charging', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 6 });
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client);
    const res = await call(key, 'POST', '/api/v1/runs', { workflowId: wf.id, answers: { q1: 'x' } });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_CREDITS' });
    expect(await balanceOf(w, user.id)).toBe(5);
  });

  it('replays an Idempotency-Key: the first run, charged once; another body is 409', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client);
    w.service.handle(() => ({ status: 202, body: { accepted: true } }));
    const body = { workflowId: wf.id, answers: { q1: 'Ana' } };
    const headers = { 'idempotency-key': 'run-once-123' };
    const [a, b] = await Promise.all([
      call(key, 'POST', '/api/v1/runs', body, headers),
      call(key, 'POST', '/api/v1/runs', body, headers),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json<TApiRun>().id).toBe(b.json<TApiRun>().id);
    const again = await call(key, 'POST', '/api/v1/runs', body, headers);
    expect(again.json<TApiRun>().id).toBe(a.json<TApiRun>().id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await balanceOf(w, user.id)).toBe(4);
    const other = await call(key, 'POST', '/api/v1/runs', { ...body, answers: { q1: 'Luis' } }, headers);
    expect(other.statusCode).toBe(409);
  });

  it('never passes a key monthly limit, even with 20 concurrent runs', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 3 });
    const user = await signUpUser(w.t);
    await grantCredits(w, user.id, 100);
    const key = await newApiKey(user.client, { name: 'capped', monthlyCreditLimit: 10 });
    w.service.handle(() => ({ status: 202, body: { accepted: true } }));
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(key, 'POST', '/api/v1/runs', { workflowId: wf.id, answers: { q1: 'x' } }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 402)).toHaveLength(17);
    for (const r of results.filter((x) => x.statusCode === 402))
      expect(r.json()).toMatchObject({ code: 'SPENDING_LIMIT' });
    expect(await balanceOf(w, user.id)).toBe(105 - 9);
    const [row] = await w.t.database.db.select().from(apiKeys).where(eq(apiKeys.userId, user.id));
    expect(row!.spentCredits).toBe(9);
    expect((await call(key, 'GET', '/api/v1/me')).json()).toMatchObject({
      spentThisMonth: 9,
      monthlyCreditLimit: 10,
    });
    // Another key of the same account has its own limit.
    const second = await newApiKey(user.client, { name: 'second' });
    expect(
      (await call(second, 'POST', '/api/v1/runs', { workflowId: wf.id, answers: { q1: 'x' } })).statusCode,
    ).toBe(201);
  });

  it('limits requests per key from the live setting, with Retry-After', async () => {
    await withConfig(w.t, 'api_requests_per_minute', 3, async () => {
      const user = await signUpUser(w.t);
      const key = await newApiKey(user.client);
      const other = await newApiKey((await signUpUser(w.t)).client);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await call(key, 'GET', '/api/v1/me')).statusCode);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const limited = await call(key, 'GET', '/api/v1/me');
      expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await call(other, 'GET', '/api/v1/me')).statusCode).toBe(200);
    });
  });
});

describe('POST /api/v1/runs without wait', () => {
  const deps = (): AppDeps => w.t.deps;

  it('answers at once with the run running; the answers reach the workflow right after and its token works', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    w.service.handle(async () => {
      await held;
      return { status: 202, body: { accepted: true } };
    });
    try {
      const res = await call(key, 'POST', '/api/v1/runs', { workflowId: wf.id, answers: { q1: 'Ana' } });
      expect(res.statusCode).toBe(201);
      const run = res.json<TApiRun>();
      expect(run).toMatchObject({ status: 'running', creditsUsed: 1, creditsRefunded: 0, completedAt: null });
      expect(await balanceOf(w, user.id)).toBe(4);
      // The workflow service holds its answer: the run was answered before its delivery was.
      await until(async () => w.service.calls.some((c) => c.body.execution_id === run.id));
      const sent = w.service.calls.find((c) => c.body.execution_id === run.id)!;
      expect(sent.body).toMatchObject({
        execution_id: run.id,
        responses: [{ question: 'Name?', answer: 'Ana' }],
      });
      release();
      await until(async () => (await runRow(w, run.id)).nextDispatchAt === null);
      const posted = await answerCall(w, sent, {
        output_data: 'Hola',
      });
      expect(posted.status).toBe(200);
      expect((await call(key, 'GET', `/api/v1/runs/${run.id}`)).json()).toMatchObject({
        status: 'completed',
        outputData: 'Hola',
      });
    } finally {
      release();
    }
  });

  it('delivers each of 20 concurrent starts once and lets go of every lease, so no retry sends one again', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    await grantCredits(w, user.id, 100);
    const key = await newApiKey(user.client);
    w.service.handle(() => ({ status: 202, body: { accepted: true } }));
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        call(key, 'POST', '/api/v1/runs', { workflowId: wf.id, answers: { q1: 'x' } }),
      ),
    );
    const ids = results.map((r) => r.json<TApiRun>().id);
    expect(results.map((r) => [r.statusCode, r.json<TApiRun>().status])).toEqual(
      ids.map(() => [201, 'running']),
    );
    await Promise.all(ids.map((id) => w.service.callFor(id)));
    await until(async () => {
      const rows = await Promise.all(ids.map((id) => runRow(w, id)));
      return rows.every((r) => r.nextDispatchAt === null);
    });
    for (const id of ids) expect((await runRow(w, id)).dispatchAttempts).toBe(1);
    // Past every lease the retry job finds none of them due.
    w.t.clock.advance(5 * 60_000);
    try {
      await deliverDueRuns(deps());
    } finally {
      w.t.clock.reset();
    }
    for (const id of ids) expect(w.service.calls.filter((c) => c.body.execution_id === id)).toHaveLength(1);
    expect(await balanceOf(w, user.id)).toBe(105 - 20);
  });

  it('leaves a run whose delivery never left (the process died) to the retry job once its lease is past', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client);
    w.service.handle(() => ({ status: 202, body: { accepted: true } }));
    const principal = (await authenticateApiKey(deps(), key))!;
    // What a start writes before its delivery goes out, without the delivery: as if the process died there.
    const started = await startRun(
      deps(),
      principal.user,
      { workflowId: wf.id, language: 'en' },
      { apiKeyId: principal.keyId, answers: [{ question: 'Name?', answer: 'Ana' }] },
    );
    expect(await runRow(w, started.executionId)).toMatchObject({ status: 'running', dispatchAttempts: 1 });
    await deliverDueRuns(deps());
    expect(w.service.calls.some((c) => c.body.execution_id === started.executionId)).toBe(false);
    w.t.clock.advance(60_000);
    try {
      await deliverDueRuns(deps());
    } finally {
      w.t.clock.reset();
    }
    const sent = await w.service.callFor(started.executionId);
    expect(sent.body.responses).toEqual([{ question: 'Name?', answer: 'Ana' }]);
    expect(await runRow(w, started.executionId)).toMatchObject({ dispatchAttempts: 2, nextDispatchAt: null });
    const posted = await answerCall(w, sent, {
      output_data: 'ok',
    });
    expect(posted.status).toBe(200);
  });

  it('finishes the deliveries under way before the server closes', async () => {
    const t = await buildTestApp({ ALLOW_PRIVATE_WEBHOOKS: 'true' });
    const service = await startWorkflowService();
    // The service holds its answer until the server is closing: the delivery is under way then.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    try {
      const [admin] = await t.database.db.select({ id: userProfiles.id }).from(userProfiles).limit(1);
      const wf = await addSurveyWorkflow(t.database.db, admin!.id, { webhookUrl: `${service.url}/hook` });
      service.handle(async () => {
        await held;
        return { status: 202, body: { accepted: true } };
      });
      const user = await signUpUser(t);
      const key = await newApiKey(user.client);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/runs',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ workflowId: wf.id, answers: { q1: 'Ana' } }),
      });
      expect(res.statusCode).toBe(201);
      const runId = res.json<TApiRun>().id;
      expect(service.calls).toHaveLength(0);
      const closed = t.app.close();
      await vi.waitFor(() => expect(service.calls).toHaveLength(1), { timeout: 10_000 });
      release();
      await closed;
      expect(service.calls.map((c) => c.body.execution_id)).toEqual([runId]);
      const [row] = await t.database.db
        .select()
        .from(workflowExecutions)
        .where(eq(workflowExecutions.id, runId));
      expect(row).toMatchObject({ status: 'running', nextDispatchAt: null });
    } finally {
      release();
      await service.close();
      await t.close().catch(() => undefined);
    }
  }, 30_000);
});

/** Waits until `check` holds. */
function until(check: () => Promise<boolean>): Promise<void> {
  return vi.waitFor(
    async () => {
      if (!(await check())) throw new Error('not yet');
    },
    { timeout: 10_000 },
  );
}

describe('OpenAPI', () => {
  it('documents the public API with its bearer key scheme and operation ids', async () => {
    const res = await w.t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      paths: Record<string, Record<string, { operationId?: string; security?: unknown }>>;
      components: { securitySchemes: Record<string, unknown> };
    }>();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/v1/runs']?.post).toMatchObject({
      operationId: 'createRun',
      security: [{ apiKey: [] }],
    });
    expect(doc.paths['/api/v1/workflows']?.get?.operationId).toBe('listWorkflows');
    expect(doc.paths['/mcp']?.post?.operationId).toBe('mcp');
  });
});
