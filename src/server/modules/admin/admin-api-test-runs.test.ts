import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TApiKeyCreated } from '#shared/contract/api-keys.js';
import type { TApiChatReply } from '#shared/contract/public-api.js';
import type { TAdminRunDetail } from '#shared/contract/operations.js';
import { creditTransactions, workflowExecutions } from '#server/db/schema.js';
import { keyCall } from '#server/test/client.js';
import {
  addChatWorkflow,
  addWorkflow,
  answerCall,
  balanceOf,
  signUpUser,
  useRunsWorld,
  type RunsWorld,
} from '../executions/testing/fixtures.js';

// The admin API's test runs and run detail (issue 27, decision 165): what the n8n node's "test" calls, through
// HTTP with an admin key, against a real workflow service on loopback.
const w: RunsWorld = useRunsWorld({ DEMO_CHAT_WORD_MS: '1' });
const db = () => w.t.database.db;

async function adminKey(): Promise<string> {
  const res = await w.admin.post('/api/account/api-keys', { name: 'n8n', scope: 'admin' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TApiKeyCreated>().key;
}

const withKey = (
  key: string,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  lng?: string,
) => keyCall(w.t, key, method, url, body, lng);

const runsOf = (workflowId: string) =>
  db().select().from(workflowExecutions).where(eq(workflowExecutions.workflowId, workflowId));
const ledgerOf = (runId: string) =>
  db().select().from(creditTransactions).where(eq(creditTransactions.executionId, runId));

describe('test runs through the admin API', () => {
  it('sends a private workflow its answers at once, charges no one, and reads the run with its delivery log', async () => {
    const key = await adminKey();
    const wf = await addWorkflow(w, { isPublic: false, creditsPerExecution: 4 });
    const balance = await balanceOf(w, w.adminId);
    w.service.handle(() => ({ status: 202, body: { accepted: true } }));
    const called = w.service.calls.length;
    const res = await withKey(key, 'POST', `/api/v1/admin/workflows/${wf.id}/test-runs`, {
      language: 'es',
      responses: [{ questionId: 'q1', answer: 'Ana' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const run = res.json<TAdminRunDetail>();
    expect(run).toMatchObject({
      workflow: { id: wf.id },
      user: { id: w.adminId },
      origin: 'test',
      status: 'running',
      creditsUsed: 0,
      inputData: [{ question: '¿Nombre?', answer: 'Ana' }],
    });
    expect(run.log).toEqual([expect.objectContaining({ kind: 'call', attempt: 1, outcome: 'accepted' })]);
    const call = w.service.calls.slice(called).find((c) => c.body.execution_id === run.id)!;
    expect(call.body.responses).toEqual([{ question: '¿Nombre?', answer: 'Ana' }]);

    expect((await answerCall(w, call, { output_data: 'hola' })).status).toBe(200);
    const read = await withKey(key, 'GET', `/api/v1/admin/runs/${run.id}`);
    expect(read.statusCode).toBe(200);
    const ended = read.json<TAdminRunDetail>();
    expect(ended).toMatchObject({ status: 'completed', outputData: 'hola', creditsUsed: 0, ledger: [] });
    expect(ended.log.map((entry) => [entry.kind, entry.outcome])).toEqual([
      ['call', 'accepted'],
      ['callback', 'accepted'],
    ]);
    expect(await ledgerOf(run.id)).toEqual([]);
    expect(await balanceOf(w, w.adminId)).toBe(balance);
  });

  it('waits for the result when asked, and reads any run, a customer run included', async () => {
    const key = await adminKey();
    const wf = await addWorkflow(w);
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: 'sync' } }));
    const res = await withKey(key, 'POST', `/api/v1/admin/workflows/${wf.id}/test-runs`, {
      responses: [{ questionId: 'q1', answer: 'Ana' }],
      wait: 10,
    });
    expect(res.json<TAdminRunDetail>()).toMatchObject({ status: 'completed', outputData: 'sync' });

    const customer = await signUpUser(w.t);
    const started = await customer.client.post('/api/executions/start', {
      workflowId: wf.id,
      language: 'en',
    });
    const runId = started.json<{ executionId: string }>().executionId;
    const read = await withKey(key, 'GET', `/api/v1/admin/runs/${runId}`);
    expect(read.json<TAdminRunDetail>()).toMatchObject({
      id: runId,
      user: { id: customer.id },
      origin: 'web',
    });
  });

  it("opens a chat's test run, talked through the public API's messages call with the same key, never charged", async () => {
    const key = await adminKey();
    const wf = await addChatWorkflow(w, { creditsPerExecution: 3, isPublic: false });
    const balance = await balanceOf(w, w.adminId);
    const res = await withKey(key, 'POST', `/api/v1/admin/workflows/${wf.id}/test-runs`, { language: 'en' });
    expect(res.statusCode, res.body).toBe(201);
    const run = res.json<TAdminRunDetail>();
    expect(run).toMatchObject({ status: 'pending', origin: 'test', creditsUsed: 0, log: [] });
    const said = await withKey(key, 'POST', `/api/v1/runs/${run.id}/messages`, { content: 'A birthday' });
    expect(said.statusCode, said.body).toBe(200);
    expect(said.json<TApiChatReply>()).toMatchObject({ done: false, run: { creditsUsed: 0 } });
    expect(await ledgerOf(run.id)).toEqual([]);
    expect(await balanceOf(w, w.adminId)).toBe(balance);
  });

  it("refuses bad input in the reader's language and leaves nothing behind", async () => {
    const key = await adminKey();
    const wf = await addWorkflow(w);
    const chat = await addChatWorkflow(w);
    const url = `/api/v1/admin/workflows/${wf.id}/test-runs`;

    const missingAnswer = await withKey(key, 'POST', url, { responses: [] }, 'es');
    expect(missingAnswer.statusCode).toBe(400);
    expect(missingAnswer.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(JSON.stringify(missingAnswer.json())).toContain('q1');
    for (const body of [
      { language: 'fr' },
      { wait: 61 },
      { responses: 'Ana' },
      { responses: [{ answer: 'Ana' }] },
      { extra: true },
    ]) {
      const bad = await withKey(key, 'POST', url, body, 'es');
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await runsOf(wf.id)).toEqual([]);

    const chatAnswers = await withKey(
      key,
      'POST',
      `/api/v1/admin/workflows/${chat.id}/test-runs`,
      { responses: [{ questionId: 'q1', answer: 'x' }] },
      'en',
    );
    expect(chatAnswers.statusCode).toBe(400);
    expect(await runsOf(chat.id)).toEqual([]);

    const missing = await withKey(
      key,
      'POST',
      '/api/v1/admin/workflows/00000000-0000-4000-8000-000000000000/test-runs',
      {},
      'es',
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'Workflow no encontrado' });
    const noRun = await withKey(
      key,
      'GET',
      '/api/v1/admin/runs/00000000-0000-4000-8000-000000000000',
      undefined,
      'es',
    );
    expect(noRun.statusCode).toBe(404);
    expect(noRun.json()).toMatchObject({ error: expect.stringMatching(/ejecución/i) });

    // A user's own key opens neither.
    const user = await signUpUser(w.t);
    const userKey = (await user.client.post('/api/account/api-keys', { name: 'mine' })).json<TApiKeyCreated>()
      .key;
    expect((await withKey(userKey, 'POST', url, {})).statusCode).toBe(403);
    expect((await withKey(userKey, 'GET', `/api/v1/admin/runs/${crypto.randomUUID()}`)).statusCode).toBe(403);
    expect(await runsOf(wf.id)).toEqual([]);
  });
});
