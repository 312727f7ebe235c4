import type { AddressInfo } from 'node:net';
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

  it('close() lets a request under way finish, and its answer closes the connection instead of keeping it alive', async () => {
    // A keep-alive socket that went idle after close() began would hold close() open for the keep-alive
    // timeout (72 s): the server closes only the sockets idle when it starts closing.
    const database = await createTestDatabase();
    const app = await buildApp(
      { config: t.config, database, db: database.db, now: () => new Date(), metrics: new Metrics() },
      { logger: false },
    );
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Hooks run in the order they were added: this one, after the app's own, lets the request finish once the
    // server has begun to close.
    app.addHook('preClose', async () => release());
    app.get('/under-way', async () => {
      entered();
      await released;
      return { ok: true };
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const answer = fetch(`http://127.0.0.1:${port}/under-way`);
      await inside;
      const closed = app.close();
      const res = await answer;
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(res.headers.get('connection')).toBe('close');
      await closed;
      expect(app.server.listening).toBe(false);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
