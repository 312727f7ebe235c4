import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAccountExport } from '#shared/contract/account.js';
import { creditTransactions, sessions, userProfiles, users } from '#server/db/schema.js';
import { signInAdmin, signUpUser, TestClient, uniqueEmail } from '#server/test/client.js';
import { TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { buildMailTestApp, linkIn, tokenOf, type MailTestApp } from '#server/test/smtp.js';

let mail: MailTestApp;
let t: TestApp;
const mailsTo = async (email: string, subject: RegExp) => [await mail.newestMail(email, subject)];

beforeAll(async () => {
  mail = await buildMailTestApp();
  ({ t } = mail);
});
afterAll(async () => mail?.close());

const signIn = (email: string, password: string) =>
  new TestClient(t).post('/api/auth/signin', { email, password });

async function secondSession(email: string, password: string): Promise<TestClient> {
  const client = new TestClient(t);
  expect((await client.post('/api/auth/signin', { email, password })).statusCode).toBe(200);
  return client;
}

describe('profile', () => {
  it('changes the name and the language, which the next mail follows', async () => {
    const user = await signUpUser(t);
    const res = await user.client.patch('/api/account/profile', { fullName: 'Lucía Pérez', language: 'es' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ fullName: 'Lucía Pérez', full_name: 'Lucía Pérez', language: 'es' });
    expect((await user.client.get('/api/auth/me')).json()).toMatchObject({ language: 'es' });
    await new TestClient(t).post('/api/auth/password-reset/request', { email: user.email });
    const [mail] = await mailsTo(user.email, /Restablece/);
    expect(mail!.text).toContain('Hola, Lucía Pérez:');

    for (const body of [{}, { language: 'fr' }, { fullName: '' }, { fullName: 'x'.repeat(121) }]) {
      const bad = await user.client.patch('/api/account/profile', body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await user.client.get('/api/auth/me')).json()).toMatchObject({ fullName: 'Lucía Pérez' });
  });
});

describe('password change', () => {
  it('needs the current password, keeps this session and ends the others', async () => {
    const user = await signUpUser(t);
    const other = await secondSession(user.email, user.password);
    const wrong = await user.client.post('/api/account/password', {
      currentPassword: 'not-my-password',
      newPassword: 'a-new-password-1',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ field: 'currentPassword' }] },
    });
    expect((await other.get('/api/auth/me')).statusCode).toBe(200);
    expect((await signIn(user.email, user.password)).statusCode).toBe(200);

    const ok = await user.client.post('/api/account/password', {
      currentPassword: user.password,
      newPassword: 'a-new-password-1',
    });
    expect(ok.statusCode).toBe(200);
    expect((await user.client.get('/api/auth/me')).statusCode).toBe(200);
    expect((await other.get('/api/auth/me')).statusCode).toBe(401);
    expect((await signIn(user.email, user.password)).statusCode).toBe(401);
    expect((await signIn(user.email, 'a-new-password-1')).statusCode).toBe(200);
    await mailsTo(user.email, /password was changed/);
  });
});

describe('e-mail change', () => {
  it('applies only when the link sent to the new address is used; the old address gets a notice', async () => {
    const user = await signUpUser(t);
    const newEmail = uniqueEmail('moved');
    const wrong = await user.client.post('/api/account/email', { newEmail, password: 'wrong-password' });
    expect(wrong.statusCode).toBe(400);
    const res = await user.client.post('/api/account/email', { newEmail, password: user.password });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ ok: true, pendingEmail: newEmail });
    const [notice] = await mailsTo(user.email, /being changed/);
    expect(notice!.text).toContain(newEmail);
    const [confirmMail] = await mailsTo(newEmail, /new e-mail address/);
    // Nothing changed yet.
    expect((await user.client.get('/api/auth/me')).json()).toMatchObject({ email: user.email });
    expect((await signIn(newEmail, user.password)).statusCode).toBe(401);

    const verified = await new TestClient(t).post('/api/auth/verify-email', {
      token: tokenOf(linkIn(confirmMail!, '/verify-email')),
    });
    expect(verified.json()).toEqual({ ok: true, email: newEmail, kind: 'email_changed' });
    expect((await user.client.get('/api/auth/me')).json()).toMatchObject({
      email: newEmail,
      emailVerified: true,
    });
    expect((await signIn(newEmail, user.password)).statusCode).toBe(200);
    expect((await signIn(user.email, user.password)).statusCode).toBe(401);
    // The old address is free again.
    expect((await signUpUser(t, { email: user.email })).email).toBe(user.email);
  });

  it('refuses an address that is taken, then or by the time the link is used', async () => {
    const user = await signUpUser(t);
    const taken = await signUpUser(t);
    const res = await user.client.post('/api/account/email', {
      newEmail: taken.email,
      password: user.password,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT' });
    expect(
      (await user.client.post('/api/account/email', { newEmail: user.email, password: user.password }))
        .statusCode,
    ).toBe(400);

    const later = uniqueEmail('raced');
    expect(
      (await user.client.post('/api/account/email', { newEmail: later, password: user.password })).statusCode,
    ).toBe(202);
    const [confirmMail] = await mailsTo(later, /new e-mail address/);
    await signUpUser(t, { email: later });
    const raced = await new TestClient(t).post('/api/auth/verify-email', {
      token: tokenOf(linkIn(confirmMail!, '/verify-email')),
    });
    expect(raced.statusCode).toBe(409);
    expect((await user.client.get('/api/auth/me')).json()).toMatchObject({ email: user.email });
  });
});

describe('sessions and data', () => {
  it('signs out every other device', async () => {
    const user = await signUpUser(t);
    const a = await secondSession(user.email, user.password);
    const b = await secondSession(user.email, user.password);
    const res = await user.client.post('/api/account/sessions/revoke-others');
    expect(res.json()).toEqual({ ok: true, revoked: 2 });
    expect((await a.get('/api/auth/me')).statusCode).toBe(401);
    expect((await b.get('/api/auth/me')).statusCode).toBe(401);
    expect((await user.client.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('downloads everything the account holds as a JSON file', async () => {
    const user = await signUpUser(t, { fullName: 'Data Owner' });
    await user.client.post('/api/credits/purchase', {
      type: 'unique',
      planName: 'Starter',
      credits: 10,
      usdAmount: 5,
    });
    const res = await user.client.get('/api/account/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="flujo-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const data = res.json() as TAccountExport;
    expect(data.profile).toMatchObject({
      id: user.id,
      email: user.email,
      fullName: 'Data Owner',
      credits: 15,
    });
    expect(data.transactions.map((x) => x.type).sort()).toEqual(['bonus', 'purchase']);
    expect(data.runs).toEqual([]);
    expect((await new TestClient(t).get('/api/account/export')).statusCode).toBe(401);
  });
});

describe('account deletion', () => {
  it('needs the password, erases personal data, keeps the books and frees the address', async () => {
    const user = await signUpUser(t, { fullName: 'Leaving Soon' });
    const other = await secondSession(user.email, user.password);
    const wrong = await user.client.post('/api/account/delete', { password: 'not-it' });
    expect(wrong.statusCode).toBe(400);
    expect((await user.client.get('/api/auth/me')).statusCode).toBe(200);

    const res = await user.client.post('/api/account/delete', { password: user.password });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/flujo_session=;/);
    expect((await other.get('/api/auth/me')).statusCode).toBe(401);
    expect((await signIn(user.email, user.password)).statusCode).toBe(401);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);

    const [profile] = await t.database.db.select().from(userProfiles).where(eq(userProfiles.id, user.id));
    expect(profile).toMatchObject({ fullName: null, accountStatus: 'suspended' });
    expect(profile!.email).not.toContain(user.email.split('@')[0]!);
    expect(profile!.deletedAt).not.toBeNull();
    const [account] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(account!.email).toBe(profile!.email);
    // The ledger keeps its rows, so the books still add up (the harness reconciles at the end).
    const ledger = await t.database.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, user.id));
    expect(ledger.length).toBeGreaterThan(0);
    const [goodbye] = await mailsTo(user.email, /account was deleted/);
    expect(goodbye!.text).toContain('Leaving Soon');

    const again = await signUpUser(t, { email: user.email });
    expect(again.id).not.toBe(user.id);
  });

  it('is not open to an admin account, which must first lose its role', async () => {
    const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
    const res = await admin.post('/api/account/delete', { password: TEST_ADMIN.password });
    expect(res.statusCode).toBe(409);
    expect((await admin.get('/api/auth/me')).statusCode).toBe(200);
  });
});
