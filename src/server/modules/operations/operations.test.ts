import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminAuditLogs, emailOutbox, userWorkflows } from '#server/db/schema.js';
import { withConfig } from '#server/test/test-data.js';
import {
  addWorkflow,
  ANSWERS,
  answerCall,
  grantCredits,
  postResult,
  signUpUser,
  startRun,
  useRunsWorld,
  type RunsWorld,
} from '../executions/testing/fixtures.js';
import { readEvents } from '../executions/testing/event-stream.js';
import { foldHealthNotes } from './health.js';
import { recordDelivery } from './delivery-log.js';

const w = useRunsWorld();

/** One run of `workflowId` by `user`, sent; the service answers as the test set it. Answers the run's id. */
async function runOnce(world: RunsWorld, user: Awaited<ReturnType<typeof signUpUser>>, workflowId: string) {
  const runId = await startRun(user.client, workflowId);
  const done = await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
  expect(done.statusCode).toBe(200);
  return runId;
}

const failNow = () => ({ status: 200, body: { status: 'failed', error_message: 'credential expired' } });
const completeNow = () => ({ status: 200, body: { status: 'completed', output_data: { ok: true } } });

async function alertMails(world: RunsWorld) {
  return world.t.database.db
    .select({ subject: emailOutbox.subject, text: emailOutbox.textBody })
    .from(emailOutbox)
    .where(eq(emailOutbox.kind, 'workflow_alert'));
}

describe('delivery log', () => {
  it("records each webhook call and result callback, redacted; admins read it with the run's ledger rows, nobody else", async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    // The service fails twice (the first try and the immediate retry), echoing a token and a bearer credential.
    w.service.handle(() => ({
      status: 500,
      body: { error: 'boom', secret_token: 'tok-123', auth: 'Bearer abc.def' },
    }));
    const runId = await startRun(user.client, wf.id);
    await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    const detail = await w.admin.get(`/api/admin/executions/${runId}`);
    expect(detail.statusCode).toBe(200);
    const body = detail.json<{
      status: string;
      canRetryDelivery: boolean;
      log: { kind: string; attempt: number; httpStatus: number; outcome: string; excerpt: string }[];
      ledger: { type: string; amount: number }[];
    }>();
    expect(body.status).toBe('running');
    expect(body.canRetryDelivery).toBe(true);
    expect(body.log.map((e) => [e.kind, e.attempt, e.httpStatus, e.outcome])).toEqual([
      ['call', 1, 500, 'error'],
      ['call', 2, 500, 'error'],
    ]);
    expect(body.log[0]!.excerpt).toContain('boom');
    expect(body.log[0]!.excerpt).not.toContain('tok-123');
    expect(body.log[0]!.excerpt).not.toContain('abc.def');
    expect(body.ledger).toEqual([expect.objectContaining({ type: 'usage', amount: -1 })]);

    // Mended: "retry delivery now" delivers at once; the service accepts it and calls back.
    w.service.handle(() => ({ status: 202, body: { accepted: true } }));
    const retried = await w.admin.post(`/api/admin/executions/${runId}/retry-delivery`, {});
    expect(retried.statusCode).toBe(200);
    const again = await w.admin.post(`/api/admin/executions/${runId}/retry-delivery`, {});
    expect(again.statusCode).toBe(409);
    const call = await w.service.callFor(runId);
    const forged = await postResult(w, { execution_id: runId, secret_token: 'wrong', status: 'completed' });
    expect(forged.status).toBe(401);
    expect((await answerCall(w, w.service.calls.at(-1) ?? call, { output_data: { done: 1 } })).status).toBe(
      200,
    );

    const after = (await w.admin.get(`/api/admin/executions/${runId}`)).json<typeof body>();
    expect(after.status).toBe('completed');
    expect(after.log.map((e) => [e.kind, e.httpStatus, e.outcome])).toEqual([
      ['call', 500, 'error'],
      ['call', 500, 'error'],
      ['call', 202, 'accepted'],
      ['callback', 401, 'refused'],
      ['callback', 200, 'accepted'],
    ]);
    expect(after.log.every((e) => !(e.excerpt ?? '').includes(call.body.secret_token))).toBe(true);

    // Not for customers, nor visitors.
    expect((await user.client.get(`/api/admin/executions/${runId}`)).statusCode).toBe(403);
  });

  it('an admin follows any run live, each new log entry included, until it ends; nobody else may', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    w.service.handle(() => ({ status: 500, body: { error: 'down' } }));
    const runId = await startRun(user.client, wf.id);
    await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    const url = `${w.baseUrl}/api/admin/executions/${runId}/events`;

    expect((await readEvents(url, { cookie: user.client.cookie! })).status).toBe(403);
    expect((await readEvents(url)).status).toBe(401);

    const stream = await readEvents(url, { cookie: w.admin.cookie! });
    expect(stream.status).toBe(200);
    type Detail = { status: string; log: { kind: string; httpStatus: number; outcome: string }[] };
    /** Reads events until one matches (a change may be told more than once). */
    const until = async (matches: (d: Detail) => boolean): Promise<Detail> => {
      for (;;) {
        const event = await stream.next();
        expect(event?.event).toBe('execution');
        const detail = JSON.parse(event!.data) as Detail;
        if (matches(detail)) return detail;
      }
    };
    const entries = (n: number) => (d: Detail) => d.log.length >= n;
    expect(await until(entries(2))).toMatchObject({ status: 'running' });
    w.service.handle(() => ({ status: 202, body: { accepted: true } }));
    expect((await w.admin.post(`/api/admin/executions/${runId}/retry-delivery`, {})).statusCode).toBe(200);
    const call = await w.service.callFor(runId);
    expect((await until(entries(3))).log[2]).toMatchObject({ kind: 'call', httpStatus: 202 });
    // A refused callback changes nothing of the run but its log, and the admin sees it.
    await postResult(w, { execution_id: runId, secret_token: 'wrong', status: 'completed' });
    expect((await until(entries(4))).log[3]).toMatchObject({ kind: 'callback', outcome: 'refused' });
    await answerCall(w, call, { output_data: { done: 1 } });
    // The ended run is the last event (the accepted callback's entry is written once the run has ended: the
    // screen reads the detail once more then).
    await until((d) => d.status === 'completed');
    expect(await stream.next()).toBeNull();
  });

  it('keeps at most delivery_log_entries_per_run entries', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    // Two failed attempts: the run waits for its retry, and the complete call answers at once.
    w.service.handle(() => ({ status: 503 }));
    const runId = await startRun(user.client, wf.id);
    await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    await withConfig(w.t, 'delivery_log_entries_per_run', 4, async () => {
      for (let i = 0; i < 4; i += 1) {
        await postResult(w, { execution_id: runId, secret_token: 'wrong', status: 'completed' });
      }
    });
    const log = (await w.admin.get(`/api/admin/executions/${runId}`)).json<{ log: unknown[] }>().log;
    // The two calls and the first two refused callbacks; the rest are not recorded.
    expect(log).toHaveLength(4);

    // A flood at once: all but the first go together in one statement, which keeps to the bound as well.
    const flooded = await startRun(user.client, wf.id);
    await user.client.post(`/api/executions/${flooded}/complete`, ANSWERS);
    await withConfig(w.t, 'delivery_log_entries_per_run', 5, async () => {
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          recordDelivery(w.t.deps.db, {
            executionId: flooded,
            kind: 'callback',
            at: new Date(),
            outcome: 'refused',
            error: `forged ${i}`,
          }),
        ),
      );
    });
    const floodLog = (await w.admin.get(`/api/admin/executions/${flooded}`)).json<{
      log: Array<{ kind: string; error: string | null }>;
    }>().log;
    expect(floodLog.map((e) => [e.kind, e.error])).toEqual([
      ['call', null],
      ['call', null],
      ['callback', 'forged 0'],
      ['callback', 'forged 1'],
      ['callback', 'forged 2'],
    ]);
  });
});

describe('alerts, health and pausing', () => {
  it('ten failures make one incident mail, a completed run one recovery mail; a refusal counts for nothing', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const before = (await alertMails(w)).length;
    await withConfig(w.t, 'auto_pause_consecutive_failures', 0, async () => {
      w.service.handle(failNow);
      for (let i = 0; i < 10; i += 1) await runOnce(w, user, wf.id);
    });
    let mails = (await alertMails(w)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/is failing/);
    expect(mails[0]!.text).toContain('credential expired');
    expect((await w.admin.get('/api/admin/incidents')).json<{ workflow: { id: string } }[]>()).toEqual(
      expect.arrayContaining([expect.objectContaining({ workflow: expect.objectContaining({ id: wf.id }) })]),
    );

    // The customer's answers refused (HTTP 422): neither a failure nor a recovery.
    w.service.handle(() => ({ status: 422, body: { error: 'bad answer' } }));
    await runOnce(w, user, wf.id);
    expect((await alertMails(w)).slice(before)).toHaveLength(1);

    w.service.handle(completeNow);
    await runOnce(w, user, wf.id);
    mails = (await alertMails(w)).slice(before);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toMatch(/works again/);

    const health = (await w.admin.get(`/api/admin/workflows/${wf.id}/health`)).json<{
      day: { failed: number; completed: number; refused: number; successRate: number };
      month: { failed: number; completed: number; refused: number; finished: number };
      incidents: { resolvedAt: string | null }[];
    }>();
    expect(health.day).toMatchObject({ failed: 10, completed: 1, refused: 1 });
    expect(health.month).toMatchObject({ failed: 10, completed: 1, refused: 1, finished: 11 });
    expect(health.incidents[0]!.resolvedAt).not.toBeNull();

    // The admin list sorted by health: least reliable first, workflows without finished runs last.
    const rows = (await w.admin.get('/api/admin/workflows?sort=health&limit=500')).json<
      { id: string; health: { successRate: number | null } }[]
    >();
    const rates = rows.map((r) => r.health.successRate);
    const known = rates.filter((r): r is number => r !== null);
    expect(known).toEqual([...known].sort((a, b) => a - b));
    expect(rates.slice(0, known.length)).toEqual(known);
    expect(rows.find((r) => r.id === wf.id)?.health.successRate).toBe(9.1);
  });

  it("pauses itself at auto_pause_consecutive_failures: 409 WORKFLOW_PAUSED in the reader's language, audited, resumed by an admin", async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    w.service.handle(failNow);
    for (let i = 0; i < 4; i += 1) await runOnce(w, user, wf.id);
    const [still] = await w.t.database.db
      .select({ pausedAt: userWorkflows.pausedAt })
      .from(userWorkflows)
      .where(eq(userWorkflows.id, wf.id));
    expect(still!.pausedAt).toBeNull();
    await runOnce(w, user, wf.id);
    const refused = await user.client.post(
      '/api/executions/start',
      { workflowId: wf.id, language: 'es' },
      { 'accept-language': 'es' },
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'WORKFLOW_PAUSED',
      error: expect.stringMatching(/no está disponible/),
    });
    const audits = await w.t.database.db
      .select()
      .from(adminAuditLogs)
      .where(and(eq(adminAuditLogs.actionType, 'workflow_auto_paused'), eq(adminAuditLogs.targetId, wf.id)));
    expect(audits).toHaveLength(1);
    const card = (await user.client.get('/api/workflows/public')).json<{ id: string; paused: boolean }[]>();
    expect(card.find((c) => c.id === wf.id)?.paused).toBe(true);

    const resumed = await w.admin.post(`/api/admin/workflows/${wf.id}/resume`, {});
    expect(resumed.json()).toEqual({ pausedAt: null, pausedReason: null });
    w.service.handle(completeNow);
    await runOnce(w, user, wf.id);
    const resumes = await w.t.database.db
      .select()
      .from(adminAuditLogs)
      .where(and(eq(adminAuditLogs.actionType, 'workflow_resumed'), eq(adminAuditLogs.targetId, wf.id)));
    expect(resumes).toHaveLength(1);

    // By hand, the same way; customers cannot pause.
    expect((await user.client.post(`/api/admin/workflows/${wf.id}/pause`, {})).statusCode).toBe(403);
    expect((await w.admin.post(`/api/admin/workflows/${wf.id}/pause`, {})).json()).toMatchObject({
      pausedReason: 'manual',
    });
    expect((await user.client.post('/api/executions/start', { workflowId: wf.id })).statusCode).toBe(409);
  });
});

describe('health rules', () => {
  it("opens a failure-rate incident when more than half of the last hour's runs (at least 5) fail, never three in a row", async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const before = (await alertMails(w)).length;
    for (const fails of [true, false, true, false]) {
      w.service.handle(fails ? failNow : completeNow);
      await runOnce(w, user, wf.id);
    }
    // Four runs: too few for the rate rule, and never two failures in a row.
    expect((await alertMails(w)).slice(before)).toHaveLength(0);
    w.service.handle(failNow);
    await runOnce(w, user, wf.id);
    const mails = (await alertMails(w)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toMatch(/More than 50% of the runs/);
    const [incident] = (await w.admin.get('/api/admin/incidents'))
      .json<{ kind: string; workflow: { id: string } }[]>()
      .filter((i) => i.workflow.id === wf.id);
    expect(incident?.kind).toBe('failure_rate');
  });

  it('shows the public health from 20 finished runs in 30 days, refusals left out', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    await grantCredits(w, user.id, 30);
    const card = async () => {
      await foldHealthNotes(w.t.database.db);
      const list = (await user.client.get('/api/workflows/public')).json<
        { id: string; health: { successPercent: number; typicalMs: number | null } | null }[]
      >();
      return list.find((c) => c.id === wf.id);
    };
    w.service.handle(completeNow);
    for (let i = 0; i < 18; i += 1) await runOnce(w, user, wf.id);
    w.service.handle(failNow);
    await runOnce(w, user, wf.id);
    w.service.handle(() => ({ status: 422, body: { error: 'bad answer' } }));
    await runOnce(w, user, wf.id);
    // 19 finished runs (the refusal is the customer's): not yet shown.
    expect((await card())?.health).toBeNull();
    w.service.handle(completeNow);
    await runOnce(w, user, wf.id);
    const health = (await card())?.health;
    expect(health?.successPercent).toBe(95);
    expect(health?.typicalMs).toEqual(expect.any(Number));
    const detail = (await user.client.get(`/api/workflows/public/${wf.id}`)).json<{ health: unknown }>();
    expect(detail.health).toEqual(health);
  });

  it('pauses at exactly the configured count when failing runs end at the same time', async () => {
    // On PostgreSQL the ten endings race for the workflow's row; on PGlite they take turns (same rule).
    const wf = await addWorkflow(w);
    const users = await Promise.all(Array.from({ length: 10 }, () => signUpUser(w.t)));
    w.service.handle(failNow);
    const runs = await Promise.all(users.map((u) => startRun(u.client, wf.id)));
    const answers = await Promise.all(
      runs.map((runId, i) => users[i]!.client.post(`/api/executions/${runId}/complete`, ANSWERS)),
    );
    // Those charged before the pause failed; any sent after it was refused, charging nothing.
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    const audits = await w.t.database.db
      .select({ details: adminAuditLogs.details })
      .from(adminAuditLogs)
      .where(and(eq(adminAuditLogs.actionType, 'workflow_auto_paused'), eq(adminAuditLogs.targetId, wf.id)));
    expect(audits).toEqual([{ details: expect.objectContaining({ consecutiveFailures: 5 }) }]);
  });
});
