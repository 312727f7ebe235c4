import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TApiKeyCreated } from '#shared/contract/api-keys.js';
import { adminAuditLogs } from '#server/db/schema.js';
import { signInAdmin, signUpUser, TestClient, uniqueEmail } from '#server/test/client.js';
import { TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { buildMailTestApp, linkIn, tokenOf, type MailTestApp } from '#server/test/smtp.js';

/*
 * Credentials that act for an account end with the account's control: a password reset and a suspension
 * revoke every API key, a password change does unless the person keeps them, and the keys of an address
 * nobody has verified do not work. Through the real SMTP server, because verification is on only where mail
 * can be sent.
 */

let mail: MailTestApp;
let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  mail = await buildMailTestApp();
  ({ t } = mail);
  admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => mail?.close());

const me = (key: string, lng: 'es' | 'en' = 'en') =>
  t.app.inject({
    method: 'GET',
    url: '/api/v1/me',
    headers: { authorization: `Bearer ${key}`, 'accept-language': lng },
  });

async function createKey(client: TestClient, name: string): Promise<string> {
  const res = await client.post('/api/account/api-keys', { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TApiKeyCreated>().key;
}

/** A signed-up person who opened the verification link. */
async function verifiedUser(language?: 'es') {
  const email = uniqueEmail('access');
  const client = new TestClient(t);
  const res = await client.post('/api/auth/signup', {
    email,
    password: 'correct-horse-battery',
    fullName: 'Ana Test',
    ...(language ? { language } : {}),
  });
  expect(res.statusCode).toBe(201);
  const link = linkIn(await mail.newestMail(email, /Confirm|Confirma/), '/verify-email');
  expect((await new TestClient(t).post('/api/auth/verify-email', { token: tokenOf(link) })).statusCode).toBe(
    200,
  );
  return { client, email, id: res.json<{ id: string }>().id, password: 'correct-horse-battery' };
}

describe("someone who registered another person's address first", () => {
  it('cannot use their keys before the address is verified, nor after its owner resets the password', async () => {
    const victim = uniqueEmail('victim');
    // The attacker signs up with the victim's address (never verified) and makes a key.
    const attacker = await signUpUser(t, { email: victim, password: 'attacker-password-1' });
    const key = await createKey(attacker.client, 'attacker script');
    const unverified = await me(key, 'es');
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json()).toEqual({
      code: 'EMAIL_NOT_VERIFIED',
      key: 'apiKey',
      error: expect.stringContaining('claves de API de esta cuenta funcionan cuando su dirección de correo'),
    });
    expect((await me(key, 'en')).json().error).toContain("This account's API keys work once its e-mail");

    // The owner of the address recovers the account with a password reset: the link proves the address.
    await new TestClient(t).post('/api/auth/password-reset/request', { email: victim });
    const reset = tokenOf(linkIn(await mail.newestMail(victim, /Reset your/), '/reset-password'));
    const owner = new TestClient(t);
    const confirmed = await owner.post('/api/auth/password-reset/confirm', {
      token: reset,
      password: 'the-owners-password',
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ emailVerified: true });

    // The attacker's key is gone, not merely waiting for a verification that has now happened.
    expect((await me(key)).statusCode).toBe(401);
    expect((await owner.get('/api/account/api-keys')).json()).toEqual({ keys: [] });
    const notice = await mail.newestMail(victim, /password was changed/);
    expect(notice.text).toContain('These API keys were revoked and no longer work: attacker script.');
    expect(notice.html).toContain('attacker script');
  });

  it('lets the keys of an account work once its address is verified', async () => {
    const email = uniqueEmail('later');
    const person = await signUpUser(t, { email });
    const key = await createKey(person.client, 'early key');
    expect((await me(key)).statusCode).toBe(403);
    const link = linkIn(await mail.newestMail(email, /Confirm your e-mail/), '/verify-email');
    await new TestClient(t).post('/api/auth/verify-email', { token: tokenOf(link) });
    expect((await me(key)).statusCode).toBe(200);
  });
});

describe('a suspension', () => {
  it('revokes every key of the account, names them in the audit, and a reactivation brings none back', async () => {
    const person = await verifiedUser();
    const first = await createKey(person.client, 'first');
    const second = await createKey(person.client, 'second');
    expect((await me(first)).statusCode).toBe(200);

    const suspend = await admin.patch(`/api/admin/users/${person.id}`, { accountStatus: 'suspended' });
    expect(suspend.statusCode).toBe(200);
    const [audit] = await t.database.db
      .select()
      .from(adminAuditLogs)
      .where(and(eq(adminAuditLogs.targetId, person.id), eq(adminAuditLogs.actionType, 'user_suspended')));
    expect(audit?.details).toMatchObject({ revokedApiKeys: ['first', 'second'] });

    await admin.patch(`/api/admin/users/${person.id}`, { accountStatus: 'active' });
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(401);
  });
});

describe('a password change', () => {
  const change = (client: TestClient, password: string, extra: Record<string, unknown> = {}) =>
    client.post('/api/account/password', {
      currentPassword: password,
      newPassword: `${password}-new`,
      ...extra,
    });

  it("revokes the keys by default and the mail names them, in the person's language", async () => {
    const person = await verifiedUser('es');
    const key = await createKey(person.client, 'informes');
    await createKey(person.client, 'agente');
    expect((await change(person.client, person.password)).statusCode).toBe(200);
    expect((await me(key)).statusCode).toBe(401);
    expect((await person.client.get('/api/account/api-keys')).json()).toEqual({ keys: [] });
    const notice = await mail.newestMail(person.email, /contraseña de Flujo ha cambiado/);
    expect(notice.text).toContain('Se revocaron estas claves de API, que ya no funcionan: informes, agente.');
  });

  it('keeps the keys when asked, and then the mail names none', async () => {
    const person = await verifiedUser();
    const key = await createKey(person.client, 'kept');
    const res = await change(person.client, person.password, { keepApiAccess: true });
    expect(res.statusCode).toBe(200);
    expect((await me(key)).statusCode).toBe(200);
    const notice = await mail.newestMail(person.email, /password was changed/);
    expect(notice.text).not.toContain('API keys were revoked');
  });

  it('refuses a keepApiAccess that is not a boolean, changing nothing', async () => {
    const person = await verifiedUser();
    const key = await createKey(person.client, 'still here');
    const res = await person.client.post(
      '/api/account/password',
      { currentPassword: person.password, newPassword: 'another-password-9', keepApiAccess: 'yes' },
      { 'accept-language': 'es' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await me(key)).statusCode).toBe(200);
    const signIn = await new TestClient(t).post('/api/auth/signin', {
      email: person.email,
      password: person.password,
    });
    expect(signIn.statusCode).toBe(200);
  });
});
