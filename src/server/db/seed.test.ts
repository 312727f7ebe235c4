import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { signUpUser, TestClient, uniqueEmail } from '../test/client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '../test/harness.js';
import { userProfiles } from './schema.js';
import { DEMO_ADMIN_EMAIL, seed } from './seed.js';

// What a restart does with ADMIN_EMAIL / ADMIN_PASSWORD (and with the demo admin) when the address is taken.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A restart of the server with this admin in its environment, on the same database. */
function restartWith(admin: { email: string; password: string } | undefined) {
  return seed({
    ...t.deps,
    config: loadConfig({
      NODE_ENV: 'test',
      DEMO_WORKFLOWS: 'false',
      ...(admin ? { ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password } : {}),
    }),
  });
}

async function signIn(email: string, password: string) {
  const client = new TestClient(t);
  const res = await client.post('/api/auth/signin', { email, password });
  return { status: res.statusCode, client };
}

describe('ADMIN_EMAIL at start', () => {
  it('creates the admin when the address is free', async () => {
    const admin = { email: uniqueEmail('ops'), password: 'ops-password-123' };
    expect(await restartWith(admin)).toEqual({});
    const { status, client } = await signIn(admin.email, admin.password);
    expect(status).toBe(200);
    expect((await client.get('/api/admin/stats')).statusCode).toBe(200);
  });

  it('never promotes an account someone registered with that address: it stays ordinary, with its own password', async () => {
    const squatter = await signUpUser(t, { password: 'squatter-password-1' });
    const result = await restartWith({
      email: squatter.email.toUpperCase(),
      password: 'operator-password-1',
    });

    expect(result.demoAdmin).toBeUndefined();
    expect(result.adminRefused).toContain(`${squatter.email} belongs to an account that is not an admin`);
    expect(result.adminRefused).toContain(
      `npm run admin -- create --email ${squatter.email} --password '<a new password>' --promote-existing`,
    );
    // The squatter's open session and password still give no admin panel; the operator's password opens nothing.
    expect((await squatter.client.get('/api/admin/stats')).statusCode).toBe(403);
    expect((await signIn(squatter.email, 'operator-password-1')).status).toBe(401);
    const again = await signIn(squatter.email, squatter.password);
    expect(again.status).toBe(200);
    expect((await again.client.get('/api/auth/me')).json()).toMatchObject({ isAdmin: false });
    expect((await again.client.get('/api/admin/users')).statusCode).toBe(403);
  });

  it('keeps an existing admin as it is, password included', async () => {
    const result = await restartWith({ email: TEST_ADMIN.email, password: 'another-password-1' });
    expect(result).toEqual({});
    expect((await signIn(TEST_ADMIN.email, TEST_ADMIN.password)).status).toBe(200);
    expect((await signIn(TEST_ADMIN.email, 'another-password-1')).status).toBe(401);
  });
});

describe('the demo admin at a start without ADMIN_EMAIL', () => {
  it('is not made from an ordinary account that holds its address when no admin is left', async () => {
    const squatter = await signUpUser(t, { email: DEMO_ADMIN_EMAIL, password: 'squatter-password-2' });
    // No admin left: the start would make the demo admin.
    await t.database.db.update(userProfiles).set({ isAdmin: false }).where(eq(userProfiles.isAdmin, true));
    try {
      const result = await restartWith(undefined);
      expect(result.demoAdmin).toBeUndefined();
      expect(result.adminRefused).toContain(`--email ${DEMO_ADMIN_EMAIL}`);
      expect((await squatter.client.get('/api/admin/stats')).statusCode).toBe(403);
    } finally {
      await t.database.db
        .update(userProfiles)
        .set({ isAdmin: true })
        .where(eq(userProfiles.email, TEST_ADMIN.email));
    }
  });
});
