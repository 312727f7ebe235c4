import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TAccountSession } from '#shared/contract/account.js';
import { sessions } from '#server/db/schema.js';
import { signInAdmin, signUpUser, TestClient } from '#server/test/client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { SESSION_TOUCH_AFTER_MS } from '../auth/service.js';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const MAC_FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0';

let t: TestApp;
beforeAll(async () => {
  // The test client connects from loopback: trusting it stands in for a proxy in front of the app.
  t = await buildTestApp({ TRUST_PROXY: 'loopback' });
});
afterEach(() => t.clock.reset());
afterAll(async () => t?.close());

/** Signs in again from another device (its own User-Agent, address and, when given, country header). */
async function device(email: string, password: string, headers: Record<string, string>): Promise<TestClient> {
  const client = new TestClient(t);
  const res = await client.post('/api/auth/signin', { email, password }, headers);
  expect(res.statusCode).toBe(200);
  return client;
}

const listOf = async (client: TestClient) => {
  const res = await client.get('/api/account/sessions');
  expect(res.statusCode).toBe(200);
  return res.json() as TAccountSession[];
};

describe('the signed-in devices', () => {
  it('lists each device with its browser, system, rough place and last use, and marks this one', async () => {
    const user = await signUpUser(t);
    t.clock.advance(60_000);
    const phone = await device(user.email, user.password, {
      'user-agent': ANDROID_CHROME,
      'x-forwarded-for': '203.0.113.57',
      'cf-ipcountry': 'ES',
    });
    t.clock.advance(60_000);
    await device(user.email, user.password, {
      'user-agent': MAC_FIREFOX,
      'x-forwarded-for': '2001:db8:85a3:8d3:1319:8a2e:370:7348',
    });

    const list = await listOf(phone);
    expect(list).toHaveLength(3);
    // Most recently used first; the whole address is never stored or shown.
    expect(
      list.map(({ browser, os, country, network, current }) => ({ browser, os, country, network, current })),
    ).toEqual([
      { browser: 'Firefox', os: 'macOS', country: null, network: '2001:db8:85a3::/48', current: false },
      { browser: 'Chrome', os: 'Android', country: 'ES', network: '203.0.113.x', current: true },
      { browser: null, os: null, country: null, network: '127.0.0.x', current: false },
    ]);
    // Signed in a minute after the first device and not used since.
    expect(Date.parse(list[1]!.lastUsedAt) - Date.parse(list[2]!.lastUsedAt)).toBeGreaterThanOrEqual(60_000);
    expect(list[1]!.lastUsedAt).toBe(list[1]!.createdAt);
    const stored = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(JSON.stringify(stored)).not.toContain('203.0.113.57');
  });

  it('notes a later use and the new place at most once an hour', async () => {
    const user = await signUpUser(t);
    const moved = { 'x-forwarded-for': '198.51.100.9', 'cf-ipcountry': 'MX' };
    t.clock.advance(SESSION_TOUCH_AFTER_MS / 2);
    expect((await user.client.get('/api/auth/me', moved)).statusCode).toBe(200);
    let [mine] = await listOf(user.client);
    // Half an hour later nothing was written.
    expect(mine).toMatchObject({ country: null, network: '127.0.0.x', lastUsedAt: mine!.createdAt });
    t.clock.advance(SESSION_TOUCH_AFTER_MS);
    const before = t.clock.now().getTime();
    expect((await user.client.get('/api/auth/me', moved)).statusCode).toBe(200);
    [mine] = await listOf(user.client);
    expect(mine).toMatchObject({ country: 'MX', network: '198.51.100.x' });
    expect(Date.parse(mine!.lastUsedAt)).toBeGreaterThanOrEqual(before);
  });

  it('signs out one other device: it is signed out, this one and the rest are not', async () => {
    const user = await signUpUser(t);
    const laptop = await device(user.email, user.password, { 'user-agent': MAC_FIREFOX });
    const phone = await device(user.email, user.password, { 'user-agent': ANDROID_CHROME });
    const target = (await listOf(user.client)).find((s) => s.browser === 'Firefox')!;

    const res = await user.client.delete(`/api/account/sessions/${target.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await laptop.get('/api/auth/me')).statusCode).toBe(401);
    expect((await phone.get('/api/auth/me')).statusCode).toBe(200);
    expect((await user.client.get('/api/auth/me')).statusCode).toBe(200);
    expect((await listOf(user.client)).map((s) => s.id)).not.toContain(target.id);
    // Once gone, it is gone.
    expect((await user.client.delete(`/api/account/sessions/${target.id}`)).statusCode).toBe(404);
  });

  it('signing out this device through the list ends it and clears the cookie', async () => {
    const user = await signUpUser(t);
    const [mine] = await listOf(user.client);
    const res = await user.client.delete(`/api/account/sessions/${mine!.id}`);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/flujo_session=;/);
    expect((await user.client.get('/api/auth/me')).statusCode).toBe(401);
  });

  it("cannot see or end another person's session, not even as an admin", async () => {
    const owner = await signUpUser(t);
    const stranger = await signUpUser(t);
    const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
    const [target] = await listOf(owner.client);

    expect((await listOf(stranger.client)).map((s) => s.id)).not.toContain(target!.id);
    for (const client of [stranger.client, admin]) {
      const res = await client.delete(`/api/account/sessions/${target!.id}`, { 'accept-language': 'es' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Sesión no encontrada', code: 'NOT_FOUND', key: 'session' });
    }
    expect((await owner.client.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('refuses a malformed id in the reader’s language and changes nothing; visitors get 401', async () => {
    const user = await signUpUser(t);
    const res = await user.client.delete('/api/account/sessions/not-a-session', { 'accept-language': 'es' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: expect.stringMatching(/^Solicitud no válida/),
    });
    expect(await listOf(user.client)).toHaveLength(1);

    const visitor = new TestClient(t);
    expect((await visitor.get('/api/account/sessions')).statusCode).toBe(401);
    const [mine] = await listOf(user.client);
    expect((await visitor.delete(`/api/account/sessions/${mine!.id}`)).statusCode).toBe(401);
  });

  it('refuses a cross-site request to sign a device out', async () => {
    const user = await signUpUser(t);
    const [mine] = await listOf(user.client);
    const res = await user.client.delete(`/api/account/sessions/${mine!.id}`, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(res.statusCode).toBe(403);
    expect(await listOf(user.client)).toHaveLength(1);
  });
});
