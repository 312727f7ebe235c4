import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authThrottle, sessions, userProfiles } from '#server/db/schema.js';
import { sha256Hex } from '#server/lib/tokens.js';
import { buildTestApp, type TestApp } from '#server/test/harness.js';
import { signUpUser, TestClient } from '#server/test/client.js';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import { authCleanupJob } from './cleanup-job.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './service.js';

const DAY = 24 * 60 * 60 * 1000;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterEach(() => t.clock.reset());
afterAll(async () => {
  expect(await ledgerMismatches(t.database.db)).toEqual([]);
  await t?.close();
});

const tokenOf = (client: TestClient) => client.cookie?.split('=')[1] ?? '';
const sessionRows = (userId: string) =>
  t.database.db.select().from(sessions).where(eq(sessions.userId, userId));

describe('session tokens', () => {
  it('are at least 128 random bits, stored only as their SHA-256, and new at every sign-in', async () => {
    const { client, id, email, password } = await signUpUser(t);
    const first = tokenOf(client);
    expect(Buffer.from(first, 'base64url').length).toBeGreaterThanOrEqual(16);
    const second = new TestClient(t);
    expect((await second.post('/api/auth/signin', { email, password })).statusCode).toBe(200);
    expect(tokenOf(second)).not.toBe(first);
    const hashes = (await sessionRows(id)).map((r) => r.tokenHash).sort();
    expect(hashes).toEqual([sha256Hex(first), sha256Hex(tokenOf(second))].sort());
  });

  it('sign-out deletes only the session it ends; the others of the same user keep working', async () => {
    const { client, id, email, password } = await signUpUser(t);
    const other = new TestClient(t);
    await other.post('/api/auth/signin', { email, password });
    expect(await sessionRows(id)).toHaveLength(2);
    const out = await client.post('/api/auth/signout');
    expect(out.statusCode).toBe(200);
    expect(out.headers['set-cookie']).toMatch(/flujo_session=;/);
    const left = await sessionRows(id);
    expect(left.map((r) => r.tokenHash)).toEqual([sha256Hex(tokenOf(other))]);
    expect((await other.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('sign-out without a session answers 200 and changes nothing', async () => {
    const res = await new TestClient(t).post('/api/auth/signout');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('a forged or malformed token is simply signed out', async () => {
    for (const cookie of [
      'flujo_session=forged-token',
      'flujo_session=',
      `flujo_session=${'a'.repeat(5000)}`,
    ]) {
      const client = new TestClient(t);
      client.cookie = cookie;
      const res = await client.get('/api/auth/me');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });

  it('a suspended account loses its sessions: lifting the suspension does not revive them', async () => {
    const { client, id } = await signUpUser(t);
    const setStatus = (accountStatus: 'active' | 'suspended') =>
      t.database.db.update(userProfiles).set({ accountStatus }).where(eq(userProfiles.id, id));
    await setStatus('suspended');
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
    await setStatus('active');
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
    expect(await sessionRows(id)).toHaveLength(0);
  });
});

describe('session lifetime', () => {
  it('documents 30 days idle and 90 days absolute', () => {
    expect(SESSION_IDLE_MS).toBe(30 * DAY);
    expect(SESSION_ABSOLUTE_MS).toBe(90 * DAY);
  });

  it('ends a session left unused for longer than the idle timeout', async () => {
    const { client, id } = await signUpUser(t);
    t.clock.advance(SESSION_IDLE_MS - DAY);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
    t.clock.advance(SESSION_IDLE_MS + 60_000);
    const res = await client.get('/api/auth/me');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await sessionRows(id)).toHaveLength(1); // the row stays until the cleanup job; it no longer works
  });

  it('slides while used, past the idle timeout counted from sign-in', async () => {
    const { client } = await signUpUser(t);
    for (let day = 20; day <= 80; day += 20) {
      t.clock.advance(20 * DAY);
      expect((await client.get('/api/auth/me')).statusCode, `day ${day}`).toBe(200);
    }
  });

  it('ends at the absolute lifetime however active the user is', async () => {
    const { client } = await signUpUser(t);
    for (let day = 0; day < 88; day += 11) {
      t.clock.advance(11 * DAY);
      expect((await client.get('/api/auth/me')).statusCode).toBe(200);
    }
    t.clock.advance(2 * DAY + 60_000); // 90 days and a minute after sign-in, last used 2 days ago
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
  });

  it('keeps the cookie in the browser for as long as the server may still accept the session', async () => {
    const { email, password } = await signUpUser(t);
    const signin = await new TestClient(t).post('/api/auth/signin', { email, password });
    const maxAge = Number(/Max-Age=(\d+)/.exec(String(signin.headers['set-cookie']))?.[1]);
    // A cookie that expired with the idle period counted from sign-in would sign out an active user.
    expect(maxAge).toBe(SESSION_ABSOLUTE_MS / 1000);
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/ and without Secure over plain http', async () => {
    const res = await new TestClient(t).post('/api/auth/signup', {
      email: `cookie-${Date.now()}@test.example`,
      password: 'cookie-password-1',
      fullName: 'C',
    });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^flujo_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Secure|Domain=/);
  });

  it('over https is named __Host-, Secure, host-only, and only that name opens the session', async () => {
    const secure = await buildTestApp({ PUBLIC_URL: 'https://flujo.example' });
    try {
      const client = new TestClient(secure);
      const res = await client.post('/api/auth/signup', {
        email: 'https-user@test.example',
        password: 'https-password-1',
        fullName: 'H',
      });
      expect(res.statusCode).toBe(201);
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^__Host-flujo_session=[A-Za-z0-9_-]{43};/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).not.toMatch(/Domain=/);
      expect((await client.get('/api/auth/me')).statusCode).toBe(200);

      const plain = new TestClient(secure);
      plain.cookie = `flujo_session=${tokenOf(client)}`;
      expect((await plain.get('/api/auth/me')).statusCode).toBe(401);

      const out = await client.post('/api/auth/signout');
      expect(String(out.headers['set-cookie'])).toMatch(/^__Host-flujo_session=;.*Secure/);
      expect(await ledgerMismatches(secure.database.db)).toEqual([]);
    } finally {
      await secure.close();
    }
  });
});

describe('the auth cleanup job', () => {
  it('deletes expired sessions and spent throttle counters, and keeps everything still in force', async () => {
    const { client, id } = await signUpUser(t);
    const now = t.clock.now();
    const at = (ms: number) => new Date(now.getTime() + ms);
    await t.database.db.insert(sessions).values([
      { userId: id, tokenHash: sha256Hex('idle-expired'), expiresAt: at(-1000), absoluteExpiresAt: at(DAY) },
      { userId: id, tokenHash: sha256Hex('too-old'), expiresAt: at(DAY), absoluteExpiresAt: at(-1000) },
    ]);
    const minute = 60_000;
    await t.database.db.insert(authThrottle).values([
      { key: 'ip:cleanup-stale', failures: 3, windowStartedAt: at(-60 * minute) },
      {
        key: 'ip:cleanup-block-over',
        failures: 10,
        windowStartedAt: at(-40 * minute),
        blockedUntil: at(-minute),
      },
      {
        key: 'ip:cleanup-blocked',
        failures: 10,
        windowStartedAt: at(-20 * minute),
        blockedUntil: at(5 * minute),
      },
      { key: 'ip:cleanup-counting', failures: 2, windowStartedAt: at(-minute) },
    ]);

    await authCleanupJob.run(t.deps);

    expect((await sessionRows(id)).map((r) => r.tokenHash)).toEqual([sha256Hex(tokenOf(client))]);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
    const keys = (await t.database.db.select().from(authThrottle))
      .map((r) => r.key)
      .filter((k) => k.startsWith('ip:cleanup'));
    expect(keys.sort()).toEqual(['ip:cleanup-blocked', 'ip:cleanup-counting']);
  });
});
