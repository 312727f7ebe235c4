import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountTokens, emailOutbox, userProfiles, users } from '#server/db/schema.js';
import { signInAdmin, signUpUser, TestClient, uniqueEmail } from '#server/test/client.js';
import { TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { buildMailTestApp, linkIn, tokenOf, type MailTestApp, type TestSmtp } from '#server/test/smtp.js';
import type { AppDeps } from '#server/types.js';
import { sendDueMails } from '../mail/sender.js';
import { RESET_RULES } from './recovery.js';
import { addSurveyWorkflow, testAdminId } from '#server/test/test-data.js';

let mail: MailTestApp;
let smtp: TestSmtp;
let t: TestApp;
let deps: AppDeps;
const newestMail = (email: string, subject: RegExp) => mail.newestMail(email, subject);

beforeAll(async () => {
  mail = await buildMailTestApp();
  ({ smtp, t, deps } = mail);
});
afterAll(async () => mail?.close());
afterEach(() => t.clock.reset());

const requestReset = (email: string, client = new TestClient(t)) =>
  client.post('/api/auth/password-reset/request', { email });
const confirm = (client: TestClient, token: string, password: string) =>
  client.post('/api/auth/password-reset/confirm', { token, password });
const hashOf = async (id: string) =>
  (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!.hashedPassword;

describe('password reset', () => {
  it('answers the same whether the account exists or not, and mails only a real account', async () => {
    const user = await signUpUser(t);
    const known = await requestReset(user.email);
    const unknown = await requestReset(uniqueEmail('nobody-here'));
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    const mail = await newestMail(user.email, /^Reset your Flujo password$/);
    expect(linkIn(mail, '/reset-password?token=')).toMatch(/\/reset-password\?token=[\w-]{43}$/);
  });

  it('sets the password, ends every session, signs in here and sends a notice', async () => {
    const user = await signUpUser(t);
    const elsewhere = new TestClient(t);
    expect(
      (await elsewhere.post('/api/auth/signin', { email: user.email, password: user.password })).statusCode,
    ).toBe(200);
    await requestReset(user.email);
    const token = tokenOf(linkIn(await newestMail(user.email, /Reset your/), '/reset-password'));

    const browser = new TestClient(t);
    const res = await confirm(browser, token, 'a-brand-new-password');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: user.email, emailVerified: true });
    expect((await browser.get('/api/auth/me')).statusCode).toBe(200);
    expect((await user.client.get('/api/auth/me')).statusCode).toBe(401);
    expect((await elsewhere.get('/api/auth/me')).statusCode).toBe(401);
    const signIn = (password: string) =>
      new TestClient(t).post('/api/auth/signin', { email: user.email, password });
    expect((await signIn(user.password)).statusCode).toBe(401);
    expect((await signIn('a-brand-new-password')).statusCode).toBe(200);
    const notice = await newestMail(user.email, /password was changed/);
    expect(linkIn(notice, '/forgot-password')).toBe(`${t.config.publicUrl}/forgot-password`);

    // The link works once.
    const again = await confirm(new TestClient(t), token, 'yet-another-password');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'INVALID_TOKEN', error: expect.stringMatching(/not valid/) });
    expect((await signIn('a-brand-new-password')).statusCode).toBe(200);
  });

  it('refuses an expired, an unknown and a superseded link, changing nothing', async () => {
    const user = await signUpUser(t);
    const before = await hashOf(user.id);
    await requestReset(user.email);
    const first = tokenOf(linkIn(await newestMail(user.email, /Reset your/), '/reset-password'));
    await requestReset(user.email);
    const second = tokenOf(linkIn(await newestMail(user.email, /Reset your/), '/reset-password'));
    expect(second).not.toBe(first);

    const superseded = await confirm(new TestClient(t), first, 'another-good-password');
    expect(superseded.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    const unknown = await confirm(new TestClient(t), 'x'.repeat(43), 'another-good-password');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    t.clock.advance(61 * 60_000);
    const expired = await confirm(new TestClient(t), second, 'another-good-password');
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    expect(await hashOf(user.id)).toBe(before);
    expect((await user.client.get('/api/auth/me')).statusCode).toBe(200);
  });

  it('keeps the link usable when the new password is refused', async () => {
    const user = await signUpUser(t);
    await requestReset(user.email);
    const token = tokenOf(linkIn(await newestMail(user.email, /Reset your/), '/reset-password'));
    const common = await confirm(new TestClient(t), token, 'qwertyuiop');
    expect(common.statusCode).toBe(400);
    expect(common.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    const short = await confirm(new TestClient(t), token, 'short');
    expect(short.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await confirm(new TestClient(t), token, 'a-fine-password-now')).statusCode).toBe(200);
  });

  it('does nothing for a suspended account, before or after the link was mailed', async () => {
    const user = await signUpUser(t);
    await requestReset(user.email);
    const token = tokenOf(linkIn(await newestMail(user.email, /Reset your/), '/reset-password'));
    await t.database.db
      .update(userProfiles)
      .set({ accountStatus: 'suspended' })
      .where(eq(userProfiles.id, user.id));
    const mailsBefore = smtp.to(user.email).length;
    expect((await requestReset(user.email)).statusCode).toBe(202);
    await sendDueMails(deps);
    expect(smtp.to(user.email)).toHaveLength(mailsBefore);
    const before = await hashOf(user.id);
    const res = await confirm(new TestClient(t), token, 'a-password-for-later');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'ACCOUNT_SUSPENDED' });
    expect(await hashOf(user.id)).toBe(before);
  });

  it('throttles requests per e-mail and per address', async () => {
    const user = await signUpUser(t);
    const from = (ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/request',
        remoteAddress: ip,
        headers: { origin: t.origin, 'content-type': 'application/json' },
        payload: JSON.stringify({ email: user.email }),
      });
    for (let i = 0; i < RESET_RULES.email.limit; i += 1)
      expect((await from(`198.51.100.${i}`)).statusCode).toBe(202);
    const blocked = await from('198.51.100.200');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const tokens = await t.database.db.select().from(accountTokens).where(eq(accountTokens.userId, user.id));
    expect(tokens.filter((k) => k.purpose === 'password_reset')).toHaveLength(1);
  });
});

describe('e-mail verification', () => {
  it('is mailed at sign-up, blocks runs while required, and opens them once the link is used', async () => {
    const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
    const config = (await admin.get('/api/admin/config')).json() as Array<{
      id: string;
      key: string;
      value: unknown;
    }>;
    const entry = config.find((c) => c.key === 'require_email_verification')!;
    // SMTP is configured for this app, so the first start turned verification on.
    expect(entry.value).toBe(true);
    const workflow = await addSurveyWorkflow(t.database.db, await testAdminId(t));

    const user = await signUpUser(t);
    expect((await user.client.get('/api/auth/me')).json()).toMatchObject({
      emailVerified: false,
      email_verified: false,
    });
    const refused = await user.client.post('/api/executions/start', { workflowId: workflow.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    expect((await user.client.get('/api/auth/me')).json()).toMatchObject({ credits: 5 });

    const first = tokenOf(linkIn(await newestMail(user.email, /Confirm your e-mail/), '/verify-email'));
    expect((await user.client.post('/api/auth/verify-email/resend')).statusCode).toBe(202);
    const second = tokenOf(linkIn(await newestMail(user.email, /Confirm your e-mail/), '/verify-email'));
    expect(second).not.toBe(first);
    // The older link was replaced by the resend.
    expect((await new TestClient(t).post('/api/auth/verify-email', { token: first })).json()).toMatchObject({
      code: 'INVALID_TOKEN',
    });
    // The link works without a session (opened in another browser).
    const verified = await new TestClient(t).post('/api/auth/verify-email', { token: second });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ ok: true, email: user.email, kind: 'verified' });
    expect((await user.client.get('/api/auth/me')).json()).toMatchObject({ emailVerified: true });
    expect((await user.client.post('/api/executions/start', { workflowId: workflow.id })).statusCode).toBe(
      201,
    );
    expect((await new TestClient(t).post('/api/auth/verify-email', { token: second })).statusCode).toBe(400);
    const resendVerified = await user.client.post('/api/auth/verify-email/resend');
    expect(resendVerified.statusCode).toBe(409);

    // Turned off, an unverified account runs at once.
    expect((await admin.patch(`/api/admin/config/${entry.id}`, { value: false })).statusCode).toBe(200);
    const other = await signUpUser(t);
    expect((await other.client.post('/api/executions/start', { workflowId: workflow.id })).statusCode).toBe(
      201,
    );
    expect((await admin.patch(`/api/admin/config/${entry.id}`, { value: true })).statusCode).toBe(200);
  });

  it('throttles resends and refuses them to visitors', async () => {
    const user = await signUpUser(t);
    expect((await new TestClient(t).post('/api/auth/verify-email/resend')).statusCode).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1)
      statuses.push((await user.client.post('/api/auth/verify-email/resend')).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('refuses malformed tokens with a validation error', async () => {
    for (const body of [{}, { token: '' }, { token: 'short' }, { token: 'x'.repeat(500) }]) {
      const res = await new TestClient(t).post('/api/auth/verify-email', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });
});

describe('an admin sending a reset link', () => {
  it('mails the user and writes the audit row; suspended and unknown users are refused', async () => {
    const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
    const user = await signUpUser(t);
    const res = await admin.post(`/api/admin/users/${user.id}/password-reset`);
    expect(res.statusCode).toBe(202);
    await newestMail(user.email, /Reset your/);
    const audit = (await admin.get('/api/admin/audit?action=password_reset_sent')).json() as Array<{
      targetId: string;
    }>;
    expect(audit.map((a) => a.targetId)).toContain(user.id);
    // A user cannot do it for anyone.
    expect((await user.client.post(`/api/admin/users/${user.id}/password-reset`)).statusCode).toBe(403);

    await t.database.db
      .update(userProfiles)
      .set({ accountStatus: 'suspended' })
      .where(eq(userProfiles.id, user.id));
    expect((await admin.post(`/api/admin/users/${user.id}/password-reset`)).statusCode).toBe(409);
    expect(
      (await admin.post('/api/admin/users/00000000-0000-4000-8000-000000000000/password-reset')).statusCode,
    ).toBe(404);
    const outbox = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.userId, user.id));
    expect(outbox.filter((m) => m.kind === 'password_reset')).toHaveLength(1);
  });
});
