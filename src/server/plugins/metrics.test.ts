import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { emailOutbox } from '../db/schema.js';
import type { Job } from '../jobs/scheduler.js';
import { startJobs } from '../jobs/scheduler.js';
import { Metrics } from '../lib/metrics.js';
import { expireOverdueRuns } from '../modules/executions/sweeper.js';
import { addWorkflow, ANSWERS, startRun, useRunsWorld } from '../modules/executions/testing/fixtures.js';
import { enqueueMail } from '../modules/mail/service.js';
import { signUpUser } from '../test/client.js';
import { createTestDatabase } from '../test/harness.js';
import type { App, AppDeps } from '../types.js';

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';
const w = useRunsWorld({ METRICS_TOKEN: TOKEN });

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!;
    }
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels`; undefined when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found.length === 0 ? undefined : found.reduce((sum, s) => sum + s.value, 0);
}

async function scrape(app: App = w.t.app): Promise<Sample[]> {
  const res = await app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  return parse(res.body);
}

/** Another instance on the same database, with its own metrics settings and registry. */
async function instanceWith(metrics: AppDeps['config']['metrics']): Promise<App> {
  const app = await buildApp(
    { ...w.t.deps, config: { ...w.t.config, metrics }, metrics: new Metrics() },
    { logger: false },
  );
  await app.ready();
  return app;
}

describe('GET /metrics', () => {
  it('is a 404 when neither METRICS_TOKEN nor METRICS_PORT is set, whatever the caller sends', async () => {
    const app = await instanceWith(undefined);
    try {
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
        const res = await app.inject({ method: 'GET', url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      }
    } finally {
      await app.close();
    }
  });

  it('is a 401 without the token, with a wrong one or another scheme, and answers with the token', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Bearer ${TOKEN.slice(0, 8)}` },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
    ];
    for (const headers of cases) {
      const res = await w.t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(res.body).not.toContain('flujo_');
    }
    const res = await w.t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers in the Prometheus text format, with process metrics and route patterns, never raw URLs', async () => {
    const wf = await addWorkflow(w);
    await w.t.app.inject({ method: 'GET', url: `/api/workflows/public/${wf.id}` });
    await w.t.app.inject({ method: 'GET', url: '/api/no-such-route/1234' });
    const res = await w.t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    for (const [name, type] of [
      ['flujo_http_request_duration_seconds', 'histogram'],
      ['flujo_runs_started_total', 'counter'],
      ['flujo_runs_finished_total', 'counter'],
      ['flujo_webhook_delivery_duration_seconds', 'histogram'],
      ['flujo_credits_granted_total', 'counter'],
      ['flujo_credits_spent_total', 'counter'],
      ['flujo_job_lag_seconds', 'gauge'],
      ['flujo_mail_outbox_messages', 'gauge'],
      ['flujo_db_pool_max_connections', 'gauge'],
      ['flujo_event_streams_open', 'gauge'],
      ['process_cpu_user_seconds_total', 'counter'],
      ['nodejs_eventloop_lag_seconds', 'gauge'],
    ]) {
      expect(res.body).toContain(`# TYPE ${name} ${type}\n`);
    }
    const samples = parse(res.body);
    const byRoute = (route: string, status: string) =>
      valueOf(samples, 'flujo_http_request_duration_seconds_count', { method: 'GET', route, status });
    expect(byRoute('/api/workflows/public/:id', '200')).toBeGreaterThanOrEqual(1);
    expect(byRoute('(unmatched)', '404')).toBeGreaterThanOrEqual(1);
    expect(res.body).not.toContain(wf.id);
    expect(res.body).not.toContain('no-such-route');
    // Every known way a run ends and every delivery outcome is there from the start, at zero if need be.
    for (const status of ['completed', 'failed', 'expired']) {
      expect(valueOf(samples, 'flujo_runs_finished_total', { status })).toBeDefined();
    }
    for (const outcome of ['success', 'rejected', 'error', 'network_error', 'blocked']) {
      expect(valueOf(samples, 'flujo_webhook_delivery_duration_seconds_count', { outcome })).toBeDefined();
    }
  });

  it('counts runs started and ended, credits and webhook deliveries where they happen', async () => {
    const wf = await addWorkflow(w);
    const price = wf.creditsPerExecution;
    expect(price).toBeGreaterThan(0);
    const before = await scrape();
    const user = await signUpUser(w.t);

    // One run the service answers at once with its result, one it refuses (4xx), one never sent (never
    // charged, so it expires with nothing to give back).
    const done = await startRun(user.client, wf.id);
    w.service.handle(() => ({
      status: 200,
      body: { status: 'completed', output_data: { message: 'Hola' } },
    }));
    const completed = await user.client.post(`/api/executions/${done}/complete`, ANSWERS);
    expect(completed.json()).toMatchObject({ status: 'completed' });
    const refused = await startRun(user.client, wf.id);
    w.service.handle(() => ({ status: 422, body: { error: 'no' } }));
    const failed = await user.client.post(`/api/executions/${refused}/complete`, ANSWERS);
    expect(failed.json()).toMatchObject({ status: 'failed' });
    await startRun(user.client, wf.id);
    w.t.clock.advance(24 * 60 * 60_000);
    try {
      expect(await expireOverdueRuns(w.t.deps)).toBeGreaterThanOrEqual(1);
    } finally {
      w.t.clock.reset();
    }

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
    expect(moved('flujo_runs_started_total')).toBe(3);
    expect(moved('flujo_runs_finished_total', { status: 'completed' })).toBe(1);
    expect(moved('flujo_runs_finished_total', { status: 'failed' })).toBe(1);
    expect(moved('flujo_runs_finished_total', { status: 'expired' })).toBeGreaterThanOrEqual(1);
    expect(moved('flujo_credits_granted_total', { reason: 'signup_bonus' })).toBe(5);
    expect(moved('flujo_credits_spent_total', { reason: 'workflow_run' })).toBe(2 * price);
    expect(moved('flujo_credits_granted_total', { reason: 'refund_run_failed' })).toBe(price);
    expect(moved('flujo_webhook_delivery_duration_seconds_count', { outcome: 'success' })).toBe(1);
    expect(moved('flujo_webhook_delivery_duration_seconds_count', { outcome: 'rejected' })).toBe(1);
    expect(moved('flujo_webhook_delivery_duration_seconds_sum', { outcome: 'success' })).toBeGreaterThan(0);
    const starts = { method: 'POST', route: '/api/executions/start', status: '201' };
    expect(moved('flujo_http_request_duration_seconds_count', starts)).toBe(3);
  });

  it('gives each job its passes by outcome, their duration, and its lag while it keeps failing', async () => {
    const succeeds: Job = { name: 'test-succeeds', intervalMs: 60_000, run: async () => undefined };
    const fails: Job = {
      name: 'test-fails',
      intervalMs: 50,
      run: async () => {
        throw new Error('always');
      },
    };
    const stop = startJobs(w.t.deps, [succeeds, fails], w.t.app.log);
    try {
      // The first pass of a job comes after at most a second.
      const samples = await vi.waitFor(
        async () => {
          const scraped = await scrape();
          expect(
            valueOf(scraped, 'flujo_job_runs_total', { job: 'test-succeeds', outcome: 'ok' }) ?? 0,
          ).toBeGreaterThanOrEqual(1);
          return scraped;
        },
        { timeout: 10_000, interval: 100 },
      );
      expect(
        valueOf(samples, 'flujo_job_runs_total', { job: 'test-fails', outcome: 'error' }),
      ).toBeGreaterThan(1);
      expect(valueOf(samples, 'flujo_job_runs_total', { job: 'test-fails', outcome: 'ok' })).toBe(0);
      expect(valueOf(samples, 'flujo_job_duration_seconds_count', { job: 'test-succeeds' })).toBe(1);
      expect(valueOf(samples, 'flujo_job_lag_seconds', { job: 'test-succeeds' })).toBe(0);
      expect(valueOf(samples, 'flujo_job_lag_seconds', { job: 'test-fails' })).toBeGreaterThan(0.5);
    } finally {
      await stop();
    }
  });

  it('reads the outbox backlog and the database pool when scraped', async () => {
    const smtpConfig = { ...w.t.config, mail: { ...w.t.config.mail, smtpUrl: 'smtp://127.0.0.1:25' } };
    const id = await enqueueMail(w.t.database.db, smtpConfig, {
      kind: 'password_reset',
      to: 'waiting@test.example',
      userId: null,
      language: 'en',
      params: { name: 'Ana', link: 'https://flujo.test/reset-password?token=x', minutes: 60 },
    });
    try {
      await w.t.database.db
        .update(emailOutbox)
        .set({ createdAt: new Date(w.t.clock.now().getTime() - 10 * 60_000) })
        .where(eq(emailOutbox.id, id));
      const samples = await scrape();
      expect(valueOf(samples, 'flujo_mail_outbox_messages', { status: 'pending' })).toBe(1);
      expect(valueOf(samples, 'flujo_mail_outbox_messages', { status: 'sending' })).toBe(0);
      expect(valueOf(samples, 'flujo_mail_outbox_oldest_seconds')).toBeGreaterThanOrEqual(600);
      await w.t.database.db.update(emailOutbox).set({ status: 'sent' }).where(eq(emailOutbox.id, id));
      const drained = await scrape();
      expect(valueOf(drained, 'flujo_mail_outbox_messages', { status: 'pending' })).toBe(0);
      expect(valueOf(drained, 'flujo_mail_outbox_oldest_seconds')).toBe(0);

      if (w.t.database.kind === 'postgres') {
        expect(valueOf(samples, 'flujo_db_pool_max_connections')).toBe(20);
        expect(valueOf(samples, 'flujo_db_pool_connections')).toBeGreaterThanOrEqual(1);
        expect(valueOf(samples, 'flujo_db_pool_connections', { state: 'idle' })).toBeDefined();
        expect(valueOf(samples, 'flujo_db_pool_waiting')).toBe(0);
      } else {
        // The embedded database: one connection inside the process, no pool to report on.
        expect(valueOf(samples, 'flujo_db_pool_max_connections')).toBe(1);
        expect(valueOf(samples, 'flujo_db_pool_connections')).toBeUndefined();
        expect(valueOf(samples, 'flujo_db_pool_waiting')).toBeUndefined();
      }
    } finally {
      await w.t.database.db.delete(emailOutbox).where(eq(emailOutbox.id, id));
    }
  });

  it('still answers when the database does not, with the outbox unknown (NaN) rather than empty', async () => {
    const database = await createTestDatabase();
    const app = await buildApp(
      { ...w.t.deps, database, db: database.db, metrics: new Metrics() },
      { logger: false },
    );
    try {
      await database.close();
      const samples = await scrape(app);
      expect(valueOf(samples, 'flujo_mail_outbox_messages', { status: 'pending' })).toBeNaN();
      expect(valueOf(samples, 'flujo_mail_outbox_oldest_seconds')).toBeNaN();
      expect(valueOf(samples, 'flujo_runs_started_total')).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('counts an open run event stream until the reader goes away', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const route = { route: '/api/executions/:id/events' };
    const open = () => scrape().then((s) => valueOf(s, 'flujo_event_streams_open', route) ?? 0);
    const reader = new AbortController();
    const res = await fetch(`${w.baseUrl}/api/executions/${runId}/events`, {
      headers: { cookie: user.client.cookie! },
      signal: reader.signal,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const stream = res.body!.getReader();
    await stream.read();
    expect(await open()).toBe(1);
    reader.abort();
    await stream.cancel().catch(() => undefined);
    await expect.poll(open, { timeout: 10_000 }).toBe(0);
  });
});

describe('METRICS_PORT: the metrics on a listener of their own', () => {
  let app: App;
  beforeAll(async () => {
    app = await instanceWith({ token: undefined, port: 0 });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves /metrics there and only there, and closes the listener with the app', async () => {
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const address = await app.listenForMetrics();
    expect(address).not.toBeNull();
    const base = `http://127.0.0.1:${address!.port}`;
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(parse(await res.text()).some((s) => s.name === 'flujo_runs_started_total')).toBe(true);
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/metrics/x'],
      ['GET', '/api/auth/me'],
      ['POST', '/metrics'],
    ] as const) {
      const other = await fetch(`${base}${path}`, { method });
      expect(other.status, `${method} ${path}`).toBe(404);
      expect(await other.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
    // Asking again gives the listener already open.
    expect(await app.listenForMetrics()).toEqual(address);
  });

  it('asks for the token there too when both are set', async () => {
    const both = await instanceWith({ token: TOKEN, port: 0 });
    let url: string;
    try {
      const address = await both.listenForMetrics();
      url = `http://127.0.0.1:${address!.port}/metrics`;
      const refused = await fetch(url);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect((await fetch(url, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    } finally {
      await both.close();
    }
    await expect(fetch(url)).rejects.toThrow();
  });

  it('is null without METRICS_PORT', async () => {
    expect(await w.t.app.listenForMetrics()).toBeNull();
  });
});
