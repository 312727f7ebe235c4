import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/harness.js';
import { ledgerMismatches } from '../test/ledger-check.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  t.app.draining = false;
  await t?.close();
});

describe('health checks', () => {
  it('/healthz answers while the process is up; /readyz checks the database', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ ok: true });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ok: true, database: t.database.kind });
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
  });

  it('/readyz turns 503 once draining, and every answer then closes its connection', async () => {
    t.app.draining = true;
    try {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ error: expect.any(String), code: expect.any(String) });
      const health = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(health.headers.connection).toBe('close');
    } finally {
      t.app.draining = false;
    }
    const after = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(after.headers.connection).not.toBe('close');
  });

  it('/readyz answers 503 { error, code } when the database is gone, while /healthz stays up', async () => {
    // The last test of the file: the database is closed under the running app.
    await t.database.close();
    t.database.close = async () => undefined;
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ error: 'Database unavailable', code: expect.any(String) });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
