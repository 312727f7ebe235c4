import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TApiKey, TApiKeyCreated } from '#shared/contract/api-keys.js';
import { apiKeys, userProfiles } from '#server/db/schema.js';
import { signUpUser, TestClient } from '#server/test/client.js';
import { buildTestApp, type TestApp } from '#server/test/harness.js';
import type { Db } from '#server/db/client.js';
import type { AppDeps } from '#server/types.js';
import { authenticateApiKey } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const me = (key: string) => t.app.inject({ method: 'GET', url: '/api/v1/me', headers: bearer(key) });

async function createKey(client: TestClient, body: Record<string, unknown> = { name: 'script' }) {
  const res = await client.post('/api/account/api-keys', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TApiKeyCreated>();
}

describe('personal API keys', () => {
  it('are created once, listed without the key, used, and revoked at once', async () => {
    const user = await signUpUser(t);
    const created = await createKey(user.client, { name: 'CI', monthlyCreditLimit: 50 });
    expect(created.key).toMatch(/^flj_[A-Za-z0-9_-]{32}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created).toMatchObject({
      name: 'CI',
      monthlyCreditLimit: 50,
      spentThisMonth: 0,
      lastUsedAt: null,
    });
    // Only the hash is stored.
    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.key.slice(created.prefix.length));

    const used = await me(created.key);
    expect(used.statusCode).toBe(200);
    expect(used.json()).toMatchObject({
      userId: user.id,
      balance: 5,
      spentThisMonth: 0,
      monthlyCreditLimit: 50,
    });

    const list = await user.client.get('/api/account/api-keys');
    expect(list.statusCode).toBe(200);
    const keys = list.json<{ keys: TApiKey[] }>().keys;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: created.id, prefix: created.prefix, name: 'CI' });
    expect(keys[0]!.lastUsedAt).not.toBeNull();
    expect(list.body).not.toContain(created.key);

    // Someone else cannot revoke it.
    const other = await signUpUser(t);
    expect((await other.client.delete(`/api/account/api-keys/${created.id}`)).statusCode).toBe(404);
    expect((await user.client.delete(`/api/account/api-keys/${created.id}`)).statusCode).toBe(200);
    expect((await me(created.key)).statusCode).toBe(401);
    expect((await user.client.get('/api/account/api-keys')).json()).toEqual({ keys: [] });
  });

  it('answers every bad key with the same 401: wrong, truncated, unknown, malformed or missing', async () => {
    const user = await signUpUser(t);
    const { key } = await createKey(user.client);
    const unknown = `flj_${randomBytes(24).toString('base64url')}`;
    const bodies = new Set<string>();
    for (const headers of [
      bearer(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`),
      bearer(key.slice(0, -1)),
      bearer(key.slice(0, 12)),
      bearer(unknown),
      bearer('flj_'),
      bearer('nonsense'),
      { authorization: key },
      { authorization: `Basic ${key}` },
      {},
    ]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/me', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe(
        `Bearer realm="flujo", resource_metadata="${t.deps.config.publicUrl}/.well-known/oauth-protected-resource/api/v1"`,
      );
      bodies.add(res.body);
    }
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).not.toContain(key.slice(0, 8));
    expect((await me(key)).statusCode).toBe(200);
  });

  it('looks every presented key up the same way: one query by its hash, whatever its shape', async () => {
    const user = await signUpUser(t);
    const { key } = await createKey(user.client);
    // The database as the lookup sees it, recording which statements each presented key costs.
    const calls: string[] = [];
    const db = new Proxy(t.database.db, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        return (...args: unknown[]) => {
          calls.push(prop);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as Db;
    const deps: AppDeps = { ...t.deps, db };
    const lookups = async (presented: string) => {
      calls.length = 0;
      const principal = await authenticateApiKey(deps, presented);
      return { principal, calls: [...calls] };
    };
    for (const presented of [
      `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`,
      key.slice(0, -1),
      key.slice(0, 12),
      `flj_${randomBytes(24).toString('base64url')}`,
      'flj_',
      'nonsense',
      'x'.repeat(4000),
    ]) {
      expect(await lookups(presented), presented.slice(0, 40)).toEqual({
        principal: null,
        calls: ['select'],
      });
    }
    // The live key takes the same lookup, then records its use.
    const live = await lookups(key);
    expect(live.principal?.user.id).toBe(user.id);
    expect(live.calls[0]).toBe('select');
  });

  it('stop working when they expire, and refuse an expiry in the past', async () => {
    const user = await signUpUser(t);
    const past = await user.client.post('/api/account/api-keys', {
      name: 'old',
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    const { key } = await createKey(user.client, {
      name: 'short',
      expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    expect((await me(key)).statusCode).toBe(200);
    t.clock.advance(61_000);
    try {
      expect((await me(key)).statusCode).toBe(401);
    } finally {
      t.clock.reset();
    }
  });

  it('stop working while the owner is suspended, and go when the account is deleted', async () => {
    const user = await signUpUser(t);
    const { key } = await createKey(user.client);
    await t.database.db
      .update(userProfiles)
      .set({ accountStatus: 'suspended' })
      .where(eq(userProfiles.id, user.id));
    expect((await me(key)).statusCode).toBe(401);
    await t.database.db
      .update(userProfiles)
      .set({ accountStatus: 'active' })
      .where(eq(userProfiles.id, user.id));
    expect((await me(key)).statusCode).toBe(200);
    expect((await user.client.post('/api/account/delete', { password: user.password })).statusCode).toBe(200);
    expect((await me(key)).statusCode).toBe(401);
    expect(await t.database.db.select().from(apiKeys).where(eq(apiKeys.userId, user.id))).toEqual([]);
  });

  it('never mix with the cookie: a key opens no cookie route and the cookie opens no /api/v1 route', async () => {
    const user = await signUpUser(t);
    const { key } = await createKey(user.client);
    const viaKey = await t.app.inject({ method: 'GET', url: '/api/account/api-keys', headers: bearer(key) });
    expect(viaKey.statusCode).toBe(401);
    expect((await user.client.get('/api/v1/me')).statusCode).toBe(401);
  });

  it('are limited per account and validated', async () => {
    const user = await signUpUser(t);
    for (const body of [
      {},
      { name: '' },
      { name: 'x', monthlyCreditLimit: 0 },
      { name: 'x', expiresAt: 'soon' },
    ]) {
      expect((await user.client.post('/api/account/api-keys', body)).statusCode, JSON.stringify(body)).toBe(
        400,
      );
    }
    for (let i = 0; i < 20; i += 1) await createKey(user.client, { name: `k${i}` });
    const extra = await user.client.post('/api/account/api-keys', { name: 'one too many' });
    expect(extra.statusCode).toBe(409);
    // A cross-site form post is refused like on every cookie route.
    const csrf = await user.client.post(
      '/api/account/api-keys',
      { name: 'x' },
      { origin: 'https://evil.example' },
    );
    expect(csrf.statusCode).toBe(403);
    expect((await new TestClient(t).get('/api/account/api-keys')).statusCode).toBe(401);
  });
});
