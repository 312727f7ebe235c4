import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { Metrics } from '../lib/metrics.js';
import { buildTestApp, createTestDatabase, type TestApp } from '../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('health checks', () => {
  it('/healthz answers while the process is up; /readyz checks the database and names nothing behind it', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ ok: true });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ok: true });
    expect(ready.body).not.toMatch(/pglite|postgres/i);
  });

  it('/readyz turns 503 once draining, and every answer then closes its connection', async () => {
    t.app.draining = true;
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        error: 'Not ready',
        code: expect.any(String),
        key: 'default',
        requestId: ready.headers['x-request-id'],
      });
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(health.headers.connection).toBe('close');
    } finally {
      t.app.draining = false;
    }
    const after = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(after.headers.connection).not.toBe('close');
  });

  it('/readyz answers 503 "Not ready" when the database is gone (the reason only in the log), while /healthz stays up', async () => {
    // An app of its own, since its database is closed under it.
    const database = await createTestDatabase();
    const app = await buildApp(
      { config: t.config, database, db: database.db, now: () => new Date(), metrics: new Metrics() },
      { logger: false },
    );
    try {
      await database.close();
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        error: 'Not ready',
        code: expect.any(String),
        key: 'default',
        requestId: ready.headers['x-request-id'],
      });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  }, 120_000);
});
