import { describe, expect, it } from 'vitest';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import { withConfig } from '#server/test/test-data.js';
import { expireOverdueRuns } from './sweeper.js';
import {
  addChatWorkflow,
  addWorkflow,
  ANSWERS,
  balanceOf,
  grantCredits,
  ledgerRowsOfRun,
  runRow,
  type RunsWorld,
  signUpUser,
  startRun,
  useRunsWorld,
} from './testing/fixtures.js';

// When a run is charged: a survey when its answers are sent, a chat at its first message, never for opening
// the execute page (the public API's one-step start is charged there: api-runs.test.ts).
const w = useRunsWorld();

const depsOf = (world: RunsWorld) => world.t.deps;
const completed = () => ({ status: 200, body: { status: 'completed', output_data: { ok: true } } });

async function ledgerCount(world: RunsWorld, runId: string): Promise<number> {
  return (
    (await ledgerRowsOfRun(world, runId, 'usage')).length +
    (await ledgerRowsOfRun(world, runId, 'refund')).length
  );
}

async function openRuns(client: Awaited<ReturnType<typeof signUpUser>>['client']) {
  const list = (await client.get('/api/executions')).json() as { id: string; status: string }[];
  return list.filter((r) => r.status === 'pending');
}

describe('opening the execute page charges nothing and reuses the unsubmitted run', () => {
  it('answers the same run to a reload, Back and Forward, with the balance untouched', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 2 });
    const user = await signUpUser(w.t);
    const first = await startRun(user.client, wf.id);
    // A reload, then Back and Forward: each opens the page again.
    const again = [
      await startRun(user.client, wf.id),
      await startRun(user.client, wf.id),
      await startRun(user.client, wf.id),
    ];
    expect(again).toEqual([first, first, first]);
    // Opens racing each other (a reload while the first load is on its way) make one run too.
    const racing = await Promise.all(Array.from({ length: 5 }, () => startRun(user.client, wf.id)));
    expect(new Set(racing)).toEqual(new Set([first]));
    expect(await openRuns(user.client)).toHaveLength(1);
    expect(await balanceOf(w, user.id)).toBe(5);
    expect(await ledgerCount(w, first)).toBe(0);
  });

  it('opens a new run once the previous one was sent, and charges only the sent one', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const first = await startRun(user.client, wf.id);
    w.service.handle(completed);
    expect((await user.client.post(`/api/executions/${first}/complete`, ANSWERS)).statusCode).toBe(200);
    // "Execute again": the ended run is not reused.
    const second = await startRun(user.client, wf.id);
    expect(second).not.toBe(first);
    expect(await balanceOf(w, user.id)).toBe(4);
    expect(await ledgerCount(w, second)).toBe(0);
  });

  it('still refuses to open a run the balance cannot pay for (402), creating nothing', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 6 });
    const user = await signUpUser(w.t);
    const res = await user.client.post('/api/executions/start', { workflowId: wf.id });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { required: 6, balance: 5 } });
    expect((await user.client.get('/api/executions')).json()).toEqual([]);
  });

  it('keeps at most open_runs_per_user unsubmitted runs, closing the oldest quietly', async () => {
    await withConfig(w.t, 'open_runs_per_user', 2, async () => {
      const user = await signUpUser(w.t);
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        ids.push(await startRun(user.client, (await addWorkflow(w)).id));
        w.t.clock.advance(1000);
      }
      w.t.clock.reset();
      const oldest = (await user.client.get(`/api/executions/${ids[0]}`)).json();
      expect(oldest).toMatchObject({
        status: 'expired',
        endReason: 'not_submitted',
        errorMessage: null,
        creditsUsed: 0,
        creditsRefunded: 0,
      });
      expect((await openRuns(user.client)).map((r) => r.id).sort()).toEqual([ids[1], ids[2]].sort());
      for (const id of ids) expect(await ledgerCount(w, id)).toBe(0);
      expect(await balanceOf(w, user.id)).toBe(5);
    });
  });

  it('refuses an open_runs_per_user below 1 and keeps the value', async () => {
    const list = (await w.admin.get('/api/admin/config')).json() as {
      id: string;
      key: string;
      value: unknown;
    }[];
    const entry = list.find((e) => e.key === 'open_runs_per_user');
    expect(entry?.value).toBe(10);
    const res = await w.admin.patch(`/api/admin/config/${entry!.id}`, { value: 0 });
    expect(res.statusCode).toBe(400);
    const after = (await w.admin.get('/api/admin/config')).json() as { key: string; value: unknown }[];
    expect(after.find((e) => e.key === 'open_runs_per_user')?.value).toBe(10);
  });
});

describe('a survey is charged when its answers are sent', () => {
  it('charges exactly once when the same run is sent 20 times at once', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 2 });
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    w.service.handle(completed);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => user.client.post(`/api/executions/${runId}/complete`, ANSWERS)),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect(await ledgerRowsOfRun(w, runId, 'usage')).toHaveLength(1);
    expect(await balanceOf(w, user.id)).toBe(3);
    expect(w.service.calls.filter((c) => c.body.execution_id === runId)).toHaveLength(1);
    expect(await ledgerMismatches(w.t.database.db)).toEqual([]);
  });

  it('answers 402 when the balance no longer covers it, and changes nothing', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 3 });
    const other = await addWorkflow(w, { creditsPerExecution: 3 });
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const spender = await startRun(user.client, other.id);
    w.service.handle(completed);
    expect((await user.client.post(`/api/executions/${spender}/complete`, ANSWERS)).statusCode).toBe(200);
    expect(await balanceOf(w, user.id)).toBe(2);

    const before = await runRow(w, runId);
    const res = await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { required: 3, balance: 2 } });
    expect(await runRow(w, runId)).toEqual(before);
    expect(await balanceOf(w, user.id)).toBe(2);
    expect(await ledgerCount(w, runId)).toBe(0);
    expect(w.service.calls.filter((c) => c.body.execution_id === runId)).toHaveLength(0);

    // With the credits back, the same run can be sent: nothing was lost.
    await grantCredits(w, user.id, 1);
    expect((await user.client.post(`/api/executions/${runId}/complete`, ANSWERS)).statusCode).toBe(200);
    expect(await balanceOf(w, user.id)).toBe(0);
  });

  it('answers 402 in the reader’s language', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 5 });
    const other = await addWorkflow(w, { creditsPerExecution: 5 });
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const spender = await startRun(user.client, other.id);
    w.service.handle(completed);
    await user.client.post(`/api/executions/${spender}/complete`, ANSWERS);
    const es = await w.t.app.inject({
      method: 'POST',
      url: `/api/executions/${runId}/complete`,
      headers: {
        origin: w.t.origin,
        cookie: user.client.cookie,
        'accept-language': 'es',
        'content-type': 'application/json',
      },
      payload: JSON.stringify(ANSWERS),
    });
    expect(es.statusCode).toBe(402);
    expect(es.json().error).toMatch(/crédito/i);
  });
});

describe('a chat is charged at its first message', () => {
  const say = (workflowId: string, executionId: string, content: string) => ({
    workflowId,
    executionId,
    messages: [{ role: 'user', content }],
    language: 'en',
  });

  it('charges once at the first message, keeps the charge when the chat is left, and says so', async () => {
    const wf = await addChatWorkflow(w, { creditsPerExecution: 2 });
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    expect(await balanceOf(w, user.id)).toBe(5);
    const first = await user.client.post('/api/chat', say(wf.id, runId, 'Ana'));
    expect(first.statusCode).toBe(200);
    expect(await balanceOf(w, user.id)).toBe(3);
    expect((await user.client.post('/api/chat', say(wf.id, runId, '12'))).statusCode).toBe(200);
    expect(await ledgerRowsOfRun(w, runId, 'usage')).toHaveLength(1);
    expect(await balanceOf(w, user.id)).toBe(3);
    // Reopening the page finds the conversation again, to continue it.
    expect(await startRun(user.client, wf.id)).toBe(runId);
    const reopened = (await user.client.get(`/api/executions/${runId}`)).json();
    expect(reopened.conversation.map((turn: { role: string }) => turn.role)).toEqual([
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(reopened.conversation[1]).toEqual({ role: 'user', content: 'Ana' });

    w.t.clock.advance(16 * 60_000);
    await expireOverdueRuns(depsOf(w));
    w.t.clock.reset();
    const left = (await user.client.get(`/api/executions/${runId}`)).json();
    expect(left).toMatchObject({
      status: 'expired',
      endReason: 'not_submitted',
      creditsUsed: 2,
      creditsRefunded: 0,
    });
    expect(await ledgerRowsOfRun(w, runId, 'refund')).toHaveLength(0);
    expect(await balanceOf(w, user.id)).toBe(3);
  });

  it('refunds a submitted chat whose workflow fails, once', async () => {
    const wf = await addChatWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    expect((await user.client.post('/api/chat', say(wf.id, runId, 'Ana'))).statusCode).toBe(200);
    expect(await balanceOf(w, user.id)).toBe(4);
    w.service.handle(() => ({ status: 400, body: { error: 'no' } }));
    const done = (await user.client.post(`/api/executions/${runId}/complete`, { responses: [] })).json();
    expect(done).toMatchObject({ status: 'failed', endReason: null, creditsUsed: 1, creditsRefunded: 1 });
    expect(await ledgerRowsOfRun(w, runId, 'refund')).toHaveLength(1);
    expect(await balanceOf(w, user.id)).toBe(5);
  });

  it('refuses the first message without the balance (402), counting and keeping nothing', async () => {
    const wf = await addChatWorkflow(w, { creditsPerExecution: 3 });
    const other = await addWorkflow(w, { creditsPerExecution: 3 });
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const spender = await startRun(user.client, other.id);
    w.service.handle(completed);
    await user.client.post(`/api/executions/${spender}/complete`, ANSWERS);
    const before = await runRow(w, runId);
    const res = await user.client.post('/api/chat', say(wf.id, runId, 'Ana'));
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { required: 3, balance: 2 } });
    expect(await runRow(w, runId)).toEqual(before);
    expect(await ledgerCount(w, runId)).toBe(0);
  });

  it('charges one of many first messages sent at once', async () => {
    const wf = await addChatWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    await Promise.all(
      Array.from({ length: 5 }, (_, i) => user.client.post('/api/chat', say(wf.id, runId, `hola ${i}`))),
    );
    expect(await ledgerRowsOfRun(w, runId, 'usage')).toHaveLength(1);
    expect(await balanceOf(w, user.id)).toBe(4);
    expect(await ledgerMismatches(w.t.database.db)).toEqual([]);
  });
});
