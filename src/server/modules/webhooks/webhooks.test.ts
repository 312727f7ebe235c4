import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { TApiRunStarted } from '#shared/contract/public-api.js';
import type { TWebhook, TWebhookCreated, TWebhookDelivery } from '#shared/contract/webhooks.js';
import {
  accountWebhooks,
  emailOutbox,
  userProfiles,
  webhookDeliveries,
  workflowExecutions,
} from '#server/db/schema.js';
import { buildTestApp } from '#server/test/harness.js';
import { addSurveyWorkflow, testAdminId, withConfig } from '#server/test/test-data.js';
import {
  addWorkflow,
  apiRequest,
  newApiKey,
  signUpUser,
  useRunsWorld,
} from '../executions/testing/fixtures.js';
import { expireOverdueRuns } from '../executions/sweeper.js';
import { CSV } from '../executions/testing/samples.js';
import {
  BACKOFF_MS,
  DELIVERY_RETENTION_MS,
  deliverDueWebhooks,
  FAILING_DISABLE_MS,
  pruneOldDeliveries,
} from './delivery.js';
import { queueAccountEvent, ROTATION_OVERLAP_MS } from './service.js';
import { startReceiver, verifyAt, type Receiver } from './testing/receiver.js';

const w = useRunsWorld();
const receivers: Receiver[] = [];
afterEach(async () => {
  w.t.clock.reset();
  // Whatever a test left due is given up, so the next test's job runs see only their own deliveries.
  await w.t.database.db.update(webhookDeliveries).set({ nextAttemptAt: null, status: 'failed' });
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

const call = (
  key: string,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
) => apiRequest(w, key, method, url, body, headers);

async function customer() {
  const user = await signUpUser(w.t);
  const key = await newApiKey(user.client);
  return { ...user, key };
}

async function addEndpoint(key: string, body: Record<string, unknown>): Promise<TWebhookCreated> {
  const res = await call(key, 'POST', '/api/v1/webhooks', body);
  if (res.statusCode !== 201) throw new Error(`webhook: ${res.statusCode} ${res.body}`);
  return res.json<TWebhookCreated>();
}

const deliver = () => deliverDueWebhooks(w.t.deps);

async function deliveriesOf(key: string, id: string): Promise<TWebhookDelivery[]> {
  return (await call(key, 'GET', `/api/v1/webhooks/${id}/deliveries`)).json<{
    deliveries: TWebhookDelivery[];
  }>().deliveries;
}

describe('account webhooks: deliveries', () => {
  it('delivers a run.completed event signed per Standard Webhooks, with a result URL the key opens', async () => {
    const r = await receiver();
    const c = await customer();
    const wf = await addWorkflow(w);
    const endpoint = await addEndpoint(c.key, { url: r.url, events: ['run.completed', 'run.failed'] });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    w.service.handle(() => ({
      status: 200,
      body: { status: 'completed', file_data: CSV.toString('base64'), filename: 'table.csv' },
    }));
    const run = (
      await call(c.key, 'POST', '/api/v1/runs', { workflowId: wf.id, answers: { q1: 'Ana' }, wait: 10 })
    ).json<TApiRunStarted>();
    expect(run.status).toBe('completed');
    // Not yet sent: the job sends it, from any instance.
    expect(r.received).toHaveLength(0);
    expect(await deliver()).toBe(1);
    expect(r.received).toHaveLength(1);
    const message = r.received[0]!;
    const payload = verifyAt(w.t.clock.now(), endpoint.secret, message);
    expect(payload).toMatchObject({
      type: 'run.completed',
      data: {
        run: {
          id: run.id,
          workflowId: wf.id,
          status: 'completed',
          origin: 'api',
          creditsUsed: 1,
          outputType: 'file',
          resultUrl: `${w.baseUrl}/api/v1/runs/${run.id}/result`,
          errorMessage: null,
        },
      },
    });
    const data = (payload as { data: { run: { startedAt: string; endedAt: string; resultUrl: string } } })
      .data;
    expect(new Date(data.run.endedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(data.run.startedAt).getTime(),
    );
    expect(message.headers['webhook-id']).toMatch(/^msg_/);
    const file = await fetch(data.run.resultUrl, { headers: { authorization: `Bearer ${c.key}` } });
    expect(Buffer.from(await file.arrayBuffer()).equals(CSV)).toBe(true);
    // A wrong secret does not verify.
    expect(() =>
      verifyAt(w.t.clock.now(), 'whsec_' + Buffer.alloc(32, 1).toString('base64'), message),
    ).toThrow();
    // Delivered once: another job run sends nothing.
    expect(await deliver()).toBe(0);
    const [logged] = await deliveriesOf(c.key, endpoint.id);
    expect(logged).toMatchObject({
      event: 'run.completed',
      status: 'delivered',
      attempts: 1,
      responseStatus: 200,
    });
    expect(logged!.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('sends only the events and workflows an endpoint picked, and a failed run as run.failed', async () => {
    const r = await receiver();
    const c = await customer();
    const wf = await addWorkflow(w);
    const other = await addWorkflow(w);
    await addEndpoint(c.key, { url: r.url, events: ['run.failed'], workflowIds: [wf.id] });
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: 'ok' } }));
    await call(c.key, 'POST', '/api/v1/runs', { workflowId: wf.id, answers: { q1: 'a' }, wait: 10 });
    w.service.handle(() => ({ status: 200, body: { status: 'failed', error_message: 'boom' } }));
    await call(c.key, 'POST', '/api/v1/runs', { workflowId: other.id, answers: { q1: 'a' }, wait: 10 });
    const failed = (
      await call(c.key, 'POST', '/api/v1/runs', { workflowId: wf.id, answers: { q1: 'a' }, wait: 10 })
    ).json<TApiRunStarted>();
    expect(failed.status).toBe('failed');
    await deliver();
    expect(r.received.map((m) => [m.json.type, (m.json.data.run as { id: string }).id])).toEqual([
      ['run.failed', failed.id],
    ]);
    expect((r.received[0]!.json.data.run as { errorMessage: string }).errorMessage).toBeTruthy();
  });

  it('retries with backoff while the receiver answers 500, and delivers once it recovers', async () => {
    const r = await receiver();
    const c = await customer();
    const endpoint = await addEndpoint(c.key, { url: r.url, events: ['credits.low'] });
    r.status = 500;
    await w.t.database.db.transaction((tx) =>
      queueAccountEvent(tx, w.t.clock.now(), { userId: c.id, type: 'credits.low', data: { balance: 2 } }),
    );
    await deliver();
    expect(r.received).toHaveLength(1);
    // Not again before its delay.
    w.t.clock.advance(BACKOFF_MS[0] - 1000);
    expect(await deliver()).toBe(0);
    w.t.clock.advance(1000);
    await deliver();
    expect(r.received).toHaveLength(2);
    let [logged] = await deliveriesOf(c.key, endpoint.id);
    expect(logged).toMatchObject({
      status: 'pending',
      attempts: 2,
      responseStatus: 500,
      lastError: 'HTTP 500',
    });
    r.status = 204;
    w.t.clock.advance(BACKOFF_MS[1]);
    await deliver();
    expect(r.received).toHaveLength(3);
    // Every attempt carries the same id and body, each signed at its own time.
    expect(new Set(r.received.map((m) => m.headers['webhook-id'])).size).toBe(1);
    expect(new Set(r.received.map((m) => m.body)).size).toBe(1);
    expect(verifyAt(w.t.clock.now(), endpoint.secret, r.received[2]!)).toMatchObject({
      type: 'credits.low',
      data: { balance: 2 },
    });
    [logged] = await deliveriesOf(c.key, endpoint.id);
    expect(logged).toMatchObject({ status: 'delivered', attempts: 3, responseStatus: 204, lastError: null });
  });

  it('gives a delivery up after 24 hours of failures', async () => {
    const r = await receiver();
    const c = await customer();
    const endpoint = await addEndpoint(c.key, { url: r.url, events: ['credits.low'] });
    r.status = 503;
    await w.t.database.db.transaction((tx) =>
      queueAccountEvent(tx, w.t.clock.now(), { userId: c.id, type: 'credits.low', data: {} }),
    );
    for (let i = 0; i < 12; i += 1) {
      await deliver();
      w.t.clock.advance(3 * 3600_000);
    }
    const [logged] = await deliveriesOf(c.key, endpoint.id);
    expect(logged).toMatchObject({ status: 'failed', nextAttemptAt: null });
    // The last attempt was at the end of the window, none after it.
    expect(r.received.length).toBeGreaterThanOrEqual(7);
    expect(r.received.length).toBeLessThanOrEqual(9);
  });

  it('a 410 answer disables the endpoint at once and mails its owner', async () => {
    const r = await receiver();
    const c = await customer();
    await c.client.patch('/api/account/profile', { language: 'es' });
    const endpoint = await addEndpoint(c.key, { url: r.url, events: ['credits.low'] });
    r.status = 410;
    await call(c.key, 'POST', `/api/v1/webhooks/${endpoint.id}/test`);
    await deliver();
    const [listed] = (await call(c.key, 'GET', '/api/v1/webhooks')).json<{ webhooks: TWebhook[] }>().webhooks;
    expect(listed).toMatchObject({ id: endpoint.id, disabledReason: 'gone' });
    const [logged] = await deliveriesOf(c.key, endpoint.id);
    expect(logged).toMatchObject({ status: 'failed', responseStatus: 410 });
    const mails = await w.t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.userId, c.id), eq(emailOutbox.kind, 'webhook_disabled')));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Se desactivó');
    expect(mails[0]!.textBody).toContain(r.url);
    // A disabled endpoint gets no new events.
    await w.t.database.db.transaction((tx) =>
      queueAccountEvent(tx, w.t.clock.now(), { userId: c.id, type: 'credits.low', data: {} }),
    );
    await deliver();
    expect(r.received).toHaveLength(1);
    // Turned back on (the settings screen), it takes events again.
    const enabled = await c.client.post(`/api/account/webhooks/${endpoint.id}/enable`);
    expect(enabled.json<TWebhook>().disabledReason).toBeNull();
  });

  it('an endpoint failing for 3 days is disabled and its owner mailed in English', async () => {
    const r = await receiver();
    const c = await customer();
    await c.client.patch('/api/account/profile', { language: 'en' });
    const endpoint = await addEndpoint(c.key, { url: r.url, events: ['credits.low'] });
    r.status = 500;
    await call(c.key, 'POST', `/api/v1/webhooks/${endpoint.id}/test`);
    await deliver();
    w.t.clock.advance(FAILING_DISABLE_MS - 60_000);
    await call(c.key, 'POST', `/api/v1/webhooks/${endpoint.id}/test`);
    await deliver();
    let [row] = await w.t.database.db
      .select()
      .from(accountWebhooks)
      .where(eq(accountWebhooks.id, endpoint.id));
    expect(row!.disabledAt).toBeNull();
    w.t.clock.advance(60_000);
    await deliver();
    [row] = await w.t.database.db.select().from(accountWebhooks).where(eq(accountWebhooks.id, endpoint.id));
    expect(row!.disabledReason).toBe('failing');
    const mails = await w.t.database.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.userId, c.id), eq(emailOutbox.kind, 'webhook_disabled')));
    expect(mails.map((m) => m.subject)).toEqual(['A Flujo webhook of yours was turned off']);
  });

  it('rotation: both secrets verify during the 24-hour overlap, then only the new one', async () => {
    const r = await receiver();
    const c = await customer();
    const endpoint = await addEndpoint(c.key, { url: r.url, events: ['credits.low'] });
    const rotated = (
      await call(c.key, 'POST', `/api/v1/webhooks/${endpoint.id}/rotate-secret`)
    ).json<TWebhookCreated>();
    expect(rotated.secret).not.toBe(endpoint.secret);
    await call(c.key, 'POST', `/api/v1/webhooks/${endpoint.id}/test`);
    await deliver();
    const during = r.received[0]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyAt(w.t.clock.now(), endpoint.secret, during)).toMatchObject({ type: 'webhook.test' });
    expect(verifyAt(w.t.clock.now(), rotated.secret, during)).toMatchObject({ type: 'webhook.test' });
    w.t.clock.advance(ROTATION_OVERLAP_MS + 1000);
    await call(c.key, 'POST', `/api/v1/webhooks/${endpoint.id}/test`);
    await deliver();
    const after = r.received[1]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => verifyAt(w.t.clock.now(), endpoint.secret, after)).toThrow();
    expect(verifyAt(w.t.clock.now(), rotated.secret, after)).toBeTruthy();
  });

  it("a run's own webhookUrl gets its ending, signed with the account secret shown in the first answer", async () => {
    const r = await receiver();
    const c = await customer();
    const wf = await addWorkflow(w);
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: 'hola' } }));
    const first = (
      await call(c.key, 'POST', '/api/v1/runs', {
        workflowId: wf.id,
        answers: { q1: 'a' },
        wait: 10,
        webhookUrl: r.url,
      })
    ).json<TApiRunStarted>();
    expect(first.webhookSecret).toMatch(/^whsec_/);
    const second = (
      await call(c.key, 'POST', '/api/v1/runs', {
        workflowId: wf.id,
        answers: { q1: 'b' },
        wait: 10,
        webhookUrl: r.url,
      })
    ).json<TApiRunStarted>();
    expect(second.webhookSecret).toBeUndefined();
    await deliver();
    expect(r.received).toHaveLength(2);
    for (const message of r.received) {
      expect(verifyAt(w.t.clock.now(), first.webhookSecret!, message)).toMatchObject({
        type: 'run.completed',
        data: { run: { status: 'completed', outputData: 'hola' } },
      });
    }
    // A new run secret, shown once.
    const rotated = await call(c.key, 'POST', '/api/v1/webhooks/run-secret');
    expect(rotated.json<{ secret: string }>().secret).toMatch(/^whsec_/);
  });

  it('a run that expires is delivered as run.expired by the sweeper', async () => {
    const r = await receiver();
    const c = await customer();
    const wf = await addWorkflow(w);
    await addEndpoint(c.key, { url: r.url, events: ['run.expired'] });
    w.service.handle(() => ({ status: 202, body: { accepted: true } }));
    const run = (
      await call(c.key, 'POST', '/api/v1/runs', { workflowId: wf.id, answers: { q1: 'a' }, wait: 1 })
    ).json<TApiRunStarted>();
    expect(run.status).toBe('running');
    w.t.clock.advance(16 * 60_000);
    await expireOverdueRuns(w.t.deps);
    await deliver();
    expect(r.received.map((m) => m.json.type)).toEqual(['run.expired']);
    expect(r.received[0]!.json.data.run).toMatchObject({ id: run.id, status: 'expired', creditsUsed: 1 });
  });

  it('keeps finished deliveries a month in the log, and never deletes a pending one', async () => {
    const r = await receiver();
    const c = await customer();
    const endpoint = await addEndpoint(c.key, { url: r.url, events: ['credits.low'] });
    await call(c.key, 'POST', `/api/v1/webhooks/${endpoint.id}/test`);
    await deliver();
    r.status = 500;
    w.t.clock.advance(DELIVERY_RETENTION_MS - 60_000);
    await call(c.key, 'POST', `/api/v1/webhooks/${endpoint.id}/test`);
    await deliver();
    await pruneOldDeliveries(w.t.deps);
    expect(await deliveriesOf(c.key, endpoint.id)).toHaveLength(2);
    w.t.clock.advance(120_000);
    await pruneOldDeliveries(w.t.deps);
    expect((await deliveriesOf(c.key, endpoint.id)).map((d) => d.status)).toEqual(['pending']);
  });

  it('two job runs at once send a delivery once', async () => {
    const r = await receiver();
    const c = await customer();
    const endpoint = await addEndpoint(c.key, { url: r.url, events: ['credits.low'] });
    await call(c.key, 'POST', `/api/v1/webhooks/${endpoint.id}/test`);
    const sent = await Promise.all([deliver(), deliver(), deliver()]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    expect(r.received).toHaveLength(1);
  });
});

describe('account webhooks: the settings routes and the API', () => {
  it('lists, tests, redelivers and deletes through the cookie routes; the secret is never listed', async () => {
    const r = await receiver();
    const c = await customer();
    const created = await c.client.post('/api/account/webhooks', { url: r.url, events: ['run.completed'] });
    expect(created.statusCode).toBe(201);
    const { id, secret } = created.json<TWebhookCreated>();
    const list = await c.client.get('/api/account/webhooks');
    expect(list.body).not.toContain(secret);
    expect(list.json<{ webhooks: TWebhook[] }>().webhooks).toMatchObject([
      { id, url: r.url, events: ['run.completed'], workflowIds: null, disabledReason: null },
    ]);
    const test = await c.client.post(`/api/account/webhooks/${id}/test`);
    expect(test.statusCode).toBe(202);
    await deliver();
    const log = (await c.client.get(`/api/account/webhooks/${id}/deliveries`)).json<{
      deliveries: TWebhookDelivery[];
    }>();
    expect(log.deliveries).toMatchObject([{ event: 'webhook.test', status: 'delivered', attempts: 1 }]);
    const again = await c.client.post(
      `/api/account/webhooks/${id}/deliveries/${log.deliveries[0]!.id}/redeliver`,
    );
    expect(again.statusCode).toBe(202);
    await deliver();
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.body).toBe(r.received[0]!.body);
    expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    expect((await c.client.delete(`/api/account/webhooks/${id}`)).statusCode).toBe(200);
    expect((await c.client.get('/api/account/webhooks')).json<{ webhooks: TWebhook[] }>().webhooks).toEqual(
      [],
    );
  });

  it("someone else's endpoint is 404 on every route, and is left as it was", async () => {
    const r = await receiver();
    const owner = await customer();
    const stranger = await customer();
    const { id } = await addEndpoint(owner.key, { url: r.url, events: ['run.completed'] });
    await call(owner.key, 'POST', `/api/v1/webhooks/${id}/test`);
    const [delivery] = await deliveriesOf(owner.key, id);
    for (const [method, url] of [
      ['DELETE', `/api/v1/webhooks/${id}`],
      ['POST', `/api/v1/webhooks/${id}/test`],
      ['GET', `/api/v1/webhooks/${id}/deliveries`],
      ['POST', `/api/v1/webhooks/${id}/rotate-secret`],
      ['POST', `/api/v1/webhooks/${id}/deliveries/${delivery!.id}/redeliver`],
    ] as const) {
      const res = await w.t.app.inject({ method, url, headers: { authorization: `Bearer ${stranger.key}` } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', error: expect.stringMatching(/not found$/) });
    }
    const cookie = await stranger.client.delete(`/api/account/webhooks/${id}`);
    expect(cookie.statusCode).toBe(404);
    expect(await deliveriesOf(owner.key, id)).toHaveLength(1);
  });

  it("refuses bad input with a clear error in the reader's language and stores nothing", async () => {
    const c = await customer();
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ url: 'not a url', events: ['run.completed'] }, 'Invalid request: url', 'Solicitud no válida: url'],
      [
        { url: 'ftp://example.com/x', events: ['run.completed'] },
        'Invalid request: url',
        'Solicitud no válida: url',
      ],
      [
        { url: 'https://example.com/x', events: [] },
        'Invalid request: events',
        'Solicitud no válida: events',
      ],
      [
        { url: 'https://example.com/x', events: ['run.started'] },
        'Invalid request: events.0',
        'Solicitud no válida: events.0',
      ],
      [
        {
          url: 'https://example.com/x',
          events: ['run.failed'],
          workflowIds: ['00000000-0000-4000-8000-000000000000'],
        },
        'There is no workflow with these ids: 00000000-0000-4000-8000-000000000000',
        'No hay ningún workflow con estos identificadores: 00000000-0000-4000-8000-000000000000',
      ],
    ];
    for (const [body, en, es] of cases) {
      for (const [lang, text] of [
        ['en', en],
        ['es', es],
      ] as const) {
        const res = await call(c.key, 'POST', '/api/v1/webhooks', body, { 'accept-language': lang });
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: text });
      }
    }
    expect(
      await w.t.database.db.select().from(accountWebhooks).where(eq(accountWebhooks.userId, c.id)),
    ).toEqual([]);
  });

  it('keeps to webhooks_per_account', async () => {
    const c = await customer();
    await withConfig(w.t, 'webhooks_per_account', 2, async () => {
      await addEndpoint(c.key, { url: 'https://example.com/a', events: ['run.completed'] });
      await addEndpoint(c.key, { url: 'https://example.com/b', events: ['run.completed'] });
      const third = await call(
        c.key,
        'POST',
        '/api/v1/webhooks',
        { url: 'https://example.com/c', events: ['run.completed'] },
        { 'accept-language': 'es' },
      );
      expect(third.statusCode).toBe(409);
      expect(third.json()).toMatchObject({
        code: 'CONFLICT',
        error: 'Una cuenta puede tener como máximo 2 webhooks',
      });
    });
    expect(
      await w.t.database.db.select().from(accountWebhooks).where(eq(accountWebhooks.userId, c.id)),
    ).toHaveLength(2);
  });
});

describe('account webhooks where private addresses are not allowed (production)', () => {
  it('refuses http, private and loopback addresses, for endpoints and for a run, storing and charging nothing', async () => {
    const t = await buildTestApp({ ALLOW_PRIVATE_WEBHOOKS: 'false' });
    try {
      expect(t.config.allowPrivateWebhooks).toBe(false);
      const user = await signUpUser(t);
      const key = (await user.client.post('/api/account/api-keys', { name: 'k' })).json<{ key: string }>()
        .key;
      const post = (url: string, body: unknown, lang: string) =>
        t.app.inject({
          method: 'POST',
          url,
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'accept-language': lang,
          },
          payload: JSON.stringify(body),
        });
      const http = await post(
        '/api/v1/webhooks',
        { url: 'http://example.com/x', events: ['run.completed'] },
        'en',
      );
      expect(http.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        error: 'The webhook address must use https',
      });
      for (const url of [
        'https://127.0.0.1/x',
        'https://10.1.2.3/x',
        'https://[::1]/x',
        'https://169.254.169.254/x',
        'https://2130706433/x',
        'https://localhost/x',
      ]) {
        const res = await post('/api/v1/webhooks', { url, events: ['run.completed'] }, 'es');
        expect(res.statusCode, url).toBe(400);
        expect(res.json<{ error: string }>().error, url).toMatch(
          /^Esta dirección de webhook no está permitida/,
        );
      }
      const wf = await addSurveyWorkflow(t.database.db, await testAdminId(t));
      const run = await post(
        '/api/v1/runs',
        { workflowId: wf.id, answers: { q1: 'a' }, webhookUrl: 'https://192.168.1.10/hook' },
        'en',
      );
      expect(run.statusCode).toBe(400);
      expect(run.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(await t.database.db.select().from(accountWebhooks)).toEqual([]);
      expect(await t.database.db.select().from(workflowExecutions)).toEqual([]);
      const [profile] = await t.database.db.select().from(userProfiles).where(eq(userProfiles.id, user.id));
      expect(profile!.credits).toBe(5);
    } finally {
      await t.close();
    }
  });
});
