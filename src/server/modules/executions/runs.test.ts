import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import { withConfig } from '#server/test/test-data.js';
import { eq } from 'drizzle-orm';
import { userProfiles } from '#server/db/schema.js';
import { AppError } from '#server/lib/errors.js';
import { completeRun } from './complete.js';
import { deliverDueRuns } from './dispatch.js';
import { startRun as startRunService } from './start.js';
import { expireOverdueRuns } from './sweeper.js';
import {
  addWorkflow,
  answerCall,
  ANSWERS,
  balanceOf,
  completeAsync,
  grantCredits,
  ledgerRowsOfRun,
  postResult,
  runRow,
  type RunsWorld,
  signUpUser,
  startRun,
  useRunsWorld,
} from './testing/fixtures.js';

const w = useRunsWorld();

/** The documented derivation, written out independently of the server's code. */
function expectedHeaderToken(secret: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return createHmac('sha256', key).update('flujo-header-token').digest('base64url');
}

describe('starting a run', () => {
  it('records a pending run charging nothing; sending its answers charges the price once', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 2 });
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    expect(await balanceOf(w, user.id)).toBe(5);
    expect(await ledgerRowsOfRun(w, runId, 'usage')).toHaveLength(0);
    const detail = await user.client.get(`/api/executions/${runId}`);
    expect(detail.json()).toMatchObject({
      id: runId,
      status: 'pending',
      creditsUsed: 0,
      progressMessage: null,
      endReason: null,
    });
    const row = await runRow(w, runId);
    expect(row.expiresAt!.getTime() - row.createdAt.getTime()).toBe(15 * 60_000);
    expect(row.language).toBe('es');
    expect(row.origin).toBe('web');

    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: { ok: true } } }));
    const done = await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    expect(done.json()).toMatchObject({ status: 'completed', creditsUsed: 2, creditsRefunded: 0 });
    expect(await balanceOf(w, user.id)).toBe(3);
    const usage = await ledgerRowsOfRun(w, runId, 'usage');
    expect(usage).toHaveLength(1);
    expect(usage[0]).toMatchObject({ amount: -2, workflowId: wf.id, userId: user.id });
  });

  it('answers 402 with the required credits and charges nothing when the balance is short', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 6 });
    const user = await signUpUser(w.t);
    const res = await user.client.post('/api/executions/start', { workflowId: wf.id });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { required: 6, balance: 5 } });
    expect(await balanceOf(w, user.id)).toBe(5);
    expect((await user.client.get('/api/executions')).json()).toEqual([]);
  });

  it('refuses visitors, unknown, inactive and (for users) private workflows without charging', async () => {
    const user = await signUpUser(w.t);
    const privateWf = await addWorkflow(w, { isPublic: false });
    const inactive = await addWorkflow(w, { isActive: false });
    const anonymous = await w.t.app.inject({
      method: 'POST',
      url: '/api/executions/start',
      headers: { origin: w.t.origin, 'content-type': 'application/json' },
      payload: JSON.stringify({ workflowId: privateWf.id }),
    });
    expect(anonymous.statusCode).toBe(401);
    for (const id of [privateWf.id, inactive.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await user.client.post('/api/executions/start', { workflowId: id });
      expect(res.statusCode).toBe(404);
    }
    expect((await user.client.post('/api/executions/start', { workflowId: 'nope' })).statusCode).toBe(400);
    expect(await balanceOf(w, user.id)).toBe(5);
    // Admins may run private workflows.
    expect((await w.admin.post('/api/executions/start', { workflowId: privateWf.id })).statusCode).toBe(201);
  });

  it('refuses a suspended account without charging it', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const me = (await user.client.get('/api/auth/me')).json();
    await w.t.database.db
      .update(userProfiles)
      .set({ accountStatus: 'suspended' })
      .where(eq(userProfiles.id, user.id));
    // Its session no longer counts (401); a start already past the session check meets the account check.
    expect((await user.client.post('/api/executions/start', { workflowId: wf.id })).statusCode).toBe(401);
    const err = await startRunService(depsOf(w), me, { workflowId: wf.id }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('ACCOUNT_SUSPENDED');
    expect(await balanceOf(w, user.id)).toBe(5);
  });

  it('pays for exactly 10 runs when a user with 10 credits sends the answers of 50 runs at once', async () => {
    await withConfig(w.t, 'open_runs_per_user', 50, async () => {
      const workflows = await Promise.all(Array.from({ length: 50 }, () => addWorkflow(w)));
      const user = await signUpUser(w.t);
      await grantCredits(w, user.id, 5);
      const runs: string[] = [];
      for (const wf of workflows) runs.push(await startRun(user.client, wf.id));
      expect(await balanceOf(w, user.id)).toBe(10);
      w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: { ok: true } } }));
      const answers = await Promise.all(
        runs.map((id) => user.client.post(`/api/executions/${id}/complete`, ANSWERS)),
      );
      const codes = answers.map((a) => a.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(10);
      expect(codes.filter((c) => c === 402)).toHaveLength(40);
      expect(await balanceOf(w, user.id)).toBe(0);
      const list = (await user.client.get('/api/executions')).json() as { status: string }[];
      expect(list.filter((r) => r.status === 'pending')).toHaveLength(40);
      expect(await ledgerMismatches(w.t.database.db)).toEqual([]);
    });
  });
});

describe('completing a run: the webhook call', () => {
  it('sends a Standard Webhooks signed call that the reference library verifies, with the token twice', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    w.service.handle(() => ({
      status: 200,
      body: { status: 'completed', output_data: { message: 'Hola Ana' } },
    }));
    const callPromise = w.service.callFor(runId);
    const res = await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    const call = await callPromise;

    const payload = new Webhook(wf.secretToken).verify(call.rawBody, {
      'webhook-id': String(call.headers['webhook-id']),
      'webhook-timestamp': String(call.headers['webhook-timestamp']),
      'webhook-signature': String(call.headers['webhook-signature']),
    });
    expect(payload).toMatchObject({
      workflow_id: wf.id,
      execution_id: runId,
      user_id: user.id,
      responses: ANSWERS.responses,
      language: 'es',
      callback_url: `${w.baseUrl}/api/workflow-result`,
    });
    expect(call.body.secret_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(call.headers['x-flujo-token']).toBe(expectedHeaderToken(wf.secretToken));
    expect(call.headers['x-flujo-token']).not.toBe(call.body.secret_token);
    expect(call.headers['webhook-id']).toBe(`msg_${runId}`);
    // A forged body does not verify.
    expect(() =>
      new Webhook(wf.secretToken).verify(call.rawBody.replace('Ana', 'Eve'), {
        'webhook-id': String(call.headers['webhook-id']),
        'webhook-timestamp': String(call.headers['webhook-timestamp']),
        'webhook-signature': String(call.headers['webhook-signature']),
      }),
    ).toThrow();

    // The synchronous answer carried the result.
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: runId,
      status: 'completed',
      outputType: 'text',
      outputData: { message: 'Hola Ana' },
      workflowName: { es: 'Resumen', en: 'Summary' },
    });
    expect(res.json().executionTimeMs).toBeGreaterThanOrEqual(0);
    expect((await runRow(w, runId)).resultTokenHash).not.toContain(call.body.secret_token);
  });

  it('sends a fixed per-workflow X-Flujo-Token (for n8n Header Auth) and a new body token per run', async () => {
    const wf = await addWorkflow(w);
    const otherWf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    await grantCredits(w, user.id, 10);
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: { message: 'ok' } } }));
    const callOf = async (workflowId: string) => {
      const runId = await startRun(user.client, workflowId);
      const callPromise = w.service.callFor(runId);
      expect((await user.client.post(`/api/executions/${runId}/complete`, ANSWERS)).statusCode).toBe(200);
      const call = await callPromise;
      return { header: String(call.headers['x-flujo-token']), bodyToken: String(call.body.secret_token) };
    };

    const first = await callOf(wf.id);
    const second = await callOf(wf.id);
    // Same header on every run of a workflow (what Header Auth can compare), derived from the secret...
    expect(first.header).toBe(expectedHeaderToken(wf.secretToken));
    expect(second.header).toBe(first.header);
    expect(first.header).not.toContain(wf.secretToken.slice('whsec_'.length));
    // ...while the body token, the one presented back with the result, is new each run.
    expect(second.bodyToken).not.toBe(first.bodyToken);
    expect([first.bodyToken, second.bodyToken]).not.toContain(first.header);
    // Another workflow has another header value.
    expect((await callOf(otherWf.id)).header).not.toBe(first.header);

    // Rotating the secret (as an admin) rotates the header value; the admin sees the one now sent.
    const rotated = await w.admin.post(`/api/admin/workflows/${wf.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const { secretToken, headerToken } = rotated.json() as { secretToken: string; headerToken: string };
    const afterRotation = await callOf(wf.id);
    expect(afterRotation.header).not.toBe(first.header);
    expect(afterRotation.header).toBe(expectedHeaderToken(secretToken));
    expect(afterRotation.header).toBe(headerToken);
  });

  it('signs with both secrets while a rotated-out secret is still valid', async () => {
    const wf = await addWorkflow(w);
    const { userWorkflows } = await import('#server/db/schema.js');
    const { eq } = await import('drizzle-orm');
    const { newWebhookSecret } = await import('../workflows/secrets.js');
    const oldSecret = wf.secretToken;
    const newSecret = newWebhookSecret();
    await w.t.database.db
      .update(userWorkflows)
      .set({
        secretToken: newSecret,
        previousSecretToken: oldSecret,
        previousSecretExpiresAt: new Date(Date.now() + 3600_000),
      })
      .where(eq(userWorkflows.id, wf.id));
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: { message: 'ok' } } }));
    const callPromise = w.service.callFor(runId);
    await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    const call = await callPromise;
    const headers = {
      'webhook-id': String(call.headers['webhook-id']),
      'webhook-timestamp': String(call.headers['webhook-timestamp']),
      'webhook-signature': String(call.headers['webhook-signature']),
    };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(call.rawBody, headers)).not.toThrow();
    expect(() => new Webhook(newSecret).verify(call.rawBody, headers)).not.toThrow();
  });

  it('waits for an asynchronous result posted to the callback URL over HTTP', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const { call, completion } = await completeAsync(w, user.client, runId);
    const posted = await answerCall(w, call, {
      output_data: { message: 'Listo' },
    });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toEqual({ ok: true, status: 'completed' });
    const res = await completion;
    expect(res.json()).toMatchObject({ status: 'completed', outputData: { message: 'Listo' } });
    expect(await balanceOf(w, user.id)).toBe(4);
  });

  it('is for the owner only (404 for others) and happens once (409)', async () => {
    const wf = await addWorkflow(w);
    const owner = await signUpUser(w.t);
    const other = await signUpUser(w.t);
    const runId = await startRun(owner.client, wf.id);
    expect((await other.client.post(`/api/executions/${runId}/complete`, ANSWERS)).statusCode).toBe(404);
    expect((await other.client.get(`/api/executions/${runId}`)).statusCode).toBe(404);
    expect((await runRow(w, runId)).status).toBe('pending');
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: { message: 'x' } } }));
    expect((await owner.client.post(`/api/executions/${runId}/complete`, ANSWERS)).statusCode).toBe(200);
    const again = await owner.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('CONFLICT');
    const bad = await owner.client.post(`/api/executions/${runId}/complete`, { responses: 'nope' });
    expect(bad.statusCode).toBe(400);
  });

  it('fails the run and refunds it once when the service answers 4xx', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    w.service.handle(() => ({ status: 403, body: { error: 'bad token' } }));
    const res = await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    // The person reads a plain explanation in the run's language (Spanish here); the status is for admins.
    expect(res.json()).toMatchObject({
      status: 'failed',
      errorCode: 'workflow_refused',
      workflowMessage: null,
      errorMessage: 'El servicio del workflow no aceptó la solicitud.',
    });
    expect((await runRow(w, runId)).errorMessage).toBe('The workflow service refused the run (HTTP 403)');
    expect(await ledgerRowsOfRun(w, runId, 'refund')).toHaveLength(1);
    expect(await balanceOf(w, user.id)).toBe(5);
    expect((await runRow(w, runId)).dispatchAttempts).toBe(1);
  });

  it('refuses a webhook on a private address in production mode, failing and refunding the run', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const before = w.service.calls.length;
    const production = { ...depsOf(w), config: { ...w.t.config, allowPrivateWebhooks: false } };
    const run = await completeRun(production, user.id, runId, ANSWERS);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'webhook_blocked' });
    expect(run.errorMessage).not.toMatch(/not allowed|127\.0\.0\.1/);
    expect((await runRow(w, runId)).errorMessage).toMatch(/not allowed/);
    expect(w.service.calls.length).toBe(before);
    expect(await ledgerRowsOfRun(w, runId, 'refund')).toHaveLength(1);
    expect(await balanceOf(w, user.id)).toBe(5);
  });

  it('retries a 5xx at once and takes the result of the retry', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    let calls = 0;
    w.service.handle(() => {
      calls += 1;
      return calls === 1
        ? { status: 503, body: { error: 'busy' } }
        : { status: 200, body: { status: 'completed', output_data: { message: 'second time' } } };
    });
    const res = await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    expect(res.json()).toMatchObject({ status: 'completed', outputData: { message: 'second time' } });
    expect(calls).toBe(2);
    expect((await runRow(w, runId)).dispatchAttempts).toBe(2);
  });

  it('does not follow redirects: retries at about 0 s, 5 s and 5 min, then fails with a refund', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    w.service.handle(() => ({ status: 302, headers: { location: `${w.service.url}/elsewhere` } }));
    const before = w.service.calls.length;
    const res = await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    expect(res.json().status).toBe('running');
    expect(w.service.calls.length - before).toBe(2);
    const row = await runRow(w, runId);
    expect(row.nextDispatchAt!.getTime() - w.t.clock.now().getTime()).toBeGreaterThan(3_000);

    // Not due yet: the job leaves it alone.
    await deliverDueRuns(depsOf(w));
    expect(w.service.calls.length - before).toBe(2);
    w.t.clock.advance(5_000);
    await deliverDueRuns(depsOf(w));
    expect(w.service.calls.length - before).toBe(3);
    w.t.clock.advance(5 * 60_000);
    await deliverDueRuns(depsOf(w));
    expect(w.service.calls.length - before).toBe(4);
    expect(w.service.calls.some((c) => c.path === '/elsewhere')).toBe(false);
    const ended = await user.client.get(`/api/executions/${runId}`);
    expect(ended.json()).toMatchObject({ status: 'failed', errorCode: 'workflow_unreachable' });
    expect((await runRow(w, runId)).errorMessage).toContain('302');
    expect(await ledgerRowsOfRun(w, runId, 'refund')).toHaveLength(1);
    expect(await balanceOf(w, user.id)).toBe(5);
    w.t.clock.reset();
  });
});

describe('durable retries', () => {
  it('two instances running the retry job at once deliver each due run once', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    w.service.handle(() => ({ status: 503 }));
    const runs = [];
    for (let i = 0; i < 5; i += 1) {
      const runId = await startRun(user.client, wf.id);
      expect((await user.client.post(`/api/executions/${runId}/complete`, ANSWERS)).json().status).toBe(
        'running',
      );
      runs.push(runId);
    }
    w.service.handle(() => ({
      status: 200,
      body: { status: 'completed', output_data: { message: 'late' } },
    }));
    w.t.clock.advance(5_000);
    const [a, b] = await Promise.all([deliverDueRuns(depsOf(w)), deliverDueRuns(depsOf(w))]);
    w.t.clock.reset();
    expect(a + b).toBe(5);
    for (const runId of runs) {
      expect(w.service.calls.filter((c) => c.body.execution_id === runId)).toHaveLength(3);
      expect((await runRow(w, runId)).status).toBe('completed');
    }
  });
});

describe('expiry', () => {
  it('expires a never-completed run with no ledger row, and refunds a run with no result once', async () => {
    const wf = await addWorkflow(w);
    const other = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const abandoned = await startRun(user.client, wf.id);
    const waiting = await startRun(user.client, other.id);
    // The service keeps failing, so the run stays running with retries scheduled.
    w.service.handle(() => ({ status: 500 }));
    expect((await user.client.post(`/api/executions/${waiting}/complete`, ANSWERS)).json().status).toBe(
      'running',
    );
    expect(await balanceOf(w, user.id)).toBe(4);

    w.t.clock.advance(14 * 60_000);
    await expireOverdueRuns(depsOf(w));
    expect((await runRow(w, abandoned)).status).toBe('pending');

    w.t.clock.advance(60_000 + 1_000);
    await expireOverdueRuns(depsOf(w));
    await expireOverdueRuns(depsOf(w));
    const left = (await user.client.get(`/api/executions/${abandoned}`)).json();
    expect(left).toMatchObject({
      status: 'expired',
      endReason: 'not_submitted',
      errorMessage: null,
      creditsUsed: 0,
      creditsRefunded: 0,
    });
    expect(await ledgerRowsOfRun(w, abandoned, 'usage')).toHaveLength(0);
    expect(await ledgerRowsOfRun(w, abandoned, 'refund')).toHaveLength(0);
    const late = (await user.client.get(`/api/executions/${waiting}`)).json();
    expect(late).toMatchObject({ status: 'expired', endReason: null, creditsUsed: 1, creditsRefunded: 1 });
    expect(await ledgerRowsOfRun(w, waiting, 'refund')).toHaveLength(1);
    expect(await balanceOf(w, user.id)).toBe(5);
    w.t.clock.reset();
  });

  it('says why in the run language: a timeout code for the person, the technical text for admins', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    // The service keeps failing, so the run stays running with retries scheduled until its time is up.
    w.service.handle(() => ({ status: 500 }));
    expect((await user.client.post(`/api/executions/${runId}/complete`, ANSWERS)).json().status).toBe(
      'running',
    );
    w.t.clock.advance(15 * 60_000 + 1_000);
    await expireOverdueRuns(depsOf(w));
    expect((await user.client.get(`/api/executions/${runId}`)).json()).toMatchObject({
      status: 'expired',
      errorCode: 'timeout',
      workflowMessage: null,
      errorMessage: 'El workflow no envió un resultado a tiempo.',
    });
    expect(await runRow(w, runId)).toMatchObject({
      errorCode: 'timeout',
      errorMessage: 'No result arrived from the workflow in time',
    });
    w.t.clock.reset();
  });

  it('follows the configured timeout', async () => {
    await withConfig(w.t, 'webhook_timeout_minutes', 2, async () => {
      const wf = await addWorkflow(w);
      const user = await signUpUser(w.t);
      const runId = await startRun(user.client, wf.id);
      w.t.clock.advance(2 * 60_000 + 1);
      await expireOverdueRuns(depsOf(w));
      expect((await runRow(w, runId)).status).toBe('expired');
    });
    w.t.clock.reset();
  });
});

describe('settling exactly once', () => {
  it('one final state and at most one refund when a success, a failure and the sweeper race', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    // PGlite runs one transaction at a time, so the race is real only on PostgreSQL: many rounds there.
    const rounds = process.env.TEST_DATABASE_URL ? 100 : 10;
    await grantCredits(w, user.id, rounds);
    // Failures in a row would pause the workflow (decision 146) before the rounds are done.
    await withConfig(w.t, 'auto_pause_consecutive_failures', 0, async () => {
      for (let i = 0; i < rounds; i += 1) {
        const runId = await startRun(user.client, wf.id);
        const { call, completion } = await completeAsync(w, user.client, runId);
        // Make the run already overdue for the sweeper, then fire all three at once.
        w.t.clock.advance(16 * 60_000);
        const token = call.body.secret_token;
        const [ok, failed] = await Promise.all([
          postResult(w, {
            execution_id: runId,
            secret_token: token,
            status: 'completed',
            output_data: { n: i },
          }),
          postResult(w, {
            execution_id: runId,
            secret_token: token,
            status: 'failed',
            output_data: { message: 'x' },
          }),
          expireOverdueRuns(depsOf(w)),
        ]);
        w.t.clock.reset();
        await completion;
        const run = await runRow(w, runId);
        const refunds = await ledgerRowsOfRun(w, runId, 'refund');
        const winners = [ok.status, failed.status].filter((s) => s === 200).length;
        expect(winners).toBeLessThanOrEqual(1);
        expect([ok.status, failed.status].every((s) => s === 200 || s === 409)).toBe(true);
        expect(refunds).toHaveLength(run.status === 'completed' ? 0 : 1);
        expect(['completed', 'failed', 'expired']).toContain(run.status);
      }
    });
    expect(await ledgerMismatches(w.t.database.db)).toEqual([]);
  }, 180_000);
});

describe('history and events', () => {
  it('lists only the caller’s runs, newest first, with the workflow name', async () => {
    const wf = await addWorkflow(w, { name: { es: 'Historial', en: 'History' } });
    const user = await signUpUser(w.t);
    const other = await signUpUser(w.t);
    const first = await startRun(user.client, wf.id);
    w.t.clock.advance(1000);
    const second = await startRun(
      user.client,
      (await addWorkflow(w, { name: { es: 'Historial', en: 'History' } })).id,
    );
    w.t.clock.reset();
    await startRun(other.client, wf.id);
    const list = (await user.client.get('/api/executions')).json();
    expect(list.map((r: { id: string }) => r.id)).toEqual([second, first]);
    expect(list[0]).toMatchObject({ workflowName: { es: 'Historial', en: 'History' }, status: 'pending' });
    const anonymous = await w.t.app.inject({ method: 'GET', url: '/api/executions' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('streams the run on each change until it ends', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const { call, completion } = await completeAsync(w, user.client, runId);
    const stream = user.client.get(`/api/executions/${runId}/events`);
    const progress = await answerCall(w, call, {
      status: 'running',
      output_data: { message: 'Paso 1 de 2' },
    });
    expect(await progress.json()).toEqual({ ok: true, status: 'running' });
    expect((await user.client.get(`/api/executions/${runId}`)).json()).toMatchObject({
      status: 'running',
      progressMessage: 'Paso 1 de 2',
    });
    await answerCall(w, call, {
      output_data: { message: 'fin' },
    });
    await completion;
    const res = await stream;
    expect(res.headers['content-type']).toMatch(/text\/event-stream/);
    const events = res.body
      .split('\n\n')
      .filter((e) => e.startsWith('event: execution'))
      .map((e) => JSON.parse(e.split('data: ')[1] ?? '{}') as { status: string });
    expect(events.at(-1)?.status).toBe('completed');
    const other = await signUpUser(w.t);
    expect((await other.client.get(`/api/executions/${runId}/events`)).statusCode).toBe(404);
  });
});

function depsOf(world: RunsWorld) {
  return world.t.deps;
}
