import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { Metrics } from '../lib/metrics.js';
import { buildTestApp, createTestDatabase, type TestApp } from '../test/harness.js';
import type { App } from '../types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const written: string[] = [];
const logLines = () =>
  written
    .join('')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Behind a proxy on loopback (TRUST_PROXY), logging at info. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp(
    { TRUST_PROXY: 'loopback', LOG_LEVEL: 'info' },
    { logger: { destination: { write: (line: string) => void written.push(line) } } },
  );
});
afterAll(async () => {
  await t?.close();
});

const healthz = (app: App, headers: Record<string, string> = {}, remoteAddress?: string) =>
  app.inject({ method: 'GET', url: '/healthz', headers, ...(remoteAddress ? { remoteAddress } : {}) });

describe('request ids', () => {
  it('are random UUIDs, never repeated by two app instances (as two processes would be)', async () => {
    // A fresh copy of every module, as another process has: a counter kept in a module would start over.
    vi.resetModules();
    const fresh: { buildApp: typeof buildApp } = await import('../app.js');
    const other = await fresh.buildApp({ ...t.deps, metrics: new Metrics() }, { logger: false });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 50; i += 1) {
        for (const app of [t.app, other]) {
          const res = await healthz(app);
          ids.push(String(res.headers['x-request-id']));
        }
      }
      for (const id of ids) expect(id).toMatch(UUID);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      await other.close();
    }
  });

  it("keeps a trusted proxy's X-Request-Id: in the answer's header and in the request's log line", async () => {
    t.app.flushAccessLog();
    written.length = 0;
    for (const id of [
      'proxy-7f3a9c',
      '0123456789abcdef0123456789abcdef',
      'f47ac10b-58cc-4372-a567-0e02b2c3d479',
      'a'.repeat(128),
    ]) {
      const res = await healthz(t.app, { 'x-request-id': id });
      expect(res.headers['x-request-id']).toBe(id);
    }
    t.app.flushAccessLog();
    expect(
      logLines()
        .filter((l) => l.msg === 'request')
        .map((l) => l.reqId),
    ).toEqual([
      'proxy-7f3a9c',
      '0123456789abcdef0123456789abcdef',
      'f47ac10b-58cc-4372-a567-0e02b2c3d479',
      'a'.repeat(128),
    ]);
  });

  it('replaces an incoming id that is not a short, plain token', async () => {
    for (const bad of ['two words', 'a'.repeat(129), 'semi;colon', 'quote"d', 'caf\u00e9', '<script>']) {
      const res = await healthz(t.app, { 'x-request-id': bad });
      expect(res.headers['x-request-id'], bad).toMatch(UUID);
    }
  });

  it('ignores the header from an address that is not a trusted proxy', async () => {
    const res = await healthz(t.app, { 'x-request-id': 'chosen-by-the-client' }, '203.0.113.7');
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('ignores the header altogether when no proxy is trusted (TRUST_PROXY unset)', async () => {
    const direct = await buildApp(
      { ...t.deps, config: { ...t.config, trustProxy: false }, metrics: new Metrics() },
      { logger: false },
    );
    try {
      const res = await healthz(direct, { 'x-request-id': 'chosen-by-the-client' });
      expect(res.headers['x-request-id']).toMatch(UUID);
    } finally {
      await direct.close();
    }
  });

  it('is in a 5xx answer, its header and the log line of the error, the same everywhere', async () => {
    // An app whose database is gone: every call that needs it fails with a 500.
    const database = await createTestDatabase();
    const lines: string[] = [];
    const broken = await buildApp(
      { ...t.deps, database, db: database.db, metrics: new Metrics() },
      { logger: { destination: { write: (line: string) => void lines.push(line) } } },
    );
    try {
      await database.close();
      const res = await broken.inject({
        method: 'POST',
        url: '/api/auth/signin',
        headers: { 'content-type': 'application/json', origin: t.origin, 'accept-language': 'es' },
        payload: JSON.stringify({ email: 'someone@test.example', password: 'a-password-1' }),
      });
      expect(res.statusCode).toBe(500);
      const id = res.headers['x-request-id'];
      expect(id).toMatch(UUID);
      expect(res.json()).toEqual({
        error: expect.any(String),
        code: 'INTERNAL_ERROR',
        key: 'default',
        requestId: id,
      });
      broken.flushAccessLog();
      const logged = lines
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(logged.find((l) => l.msg === 'unhandled error')).toMatchObject({ reqId: id, level: 50 });
      expect(logged.find((l) => l.msg === 'request')).toMatchObject({ reqId: id, status: 500 });
    } finally {
      await broken.close();
    }
  });

  it('leaves 4xx answers as they were: no id in the body, only in the header', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.json()).not.toHaveProperty('requestId');
  });
});
