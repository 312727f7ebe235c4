import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TAdminEmail, TAdminEmailDetail } from '#shared/contract/emails.js';
import { emailOutbox } from '#server/db/schema.js';
import { signInAdmin, TestClient, uniqueEmail } from '#server/test/client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { buildMailTestApp, linkIn, tokenOf, type MailTestApp, type TestSmtp } from '#server/test/smtp.js';
import type { AppDeps } from '#server/types.js';
import { MAIL_MAX_ATTEMPTS, sendDueMails } from './sender.js';

let mail: MailTestApp;
let smtp: TestSmtp;
let t: TestApp;
let deps: AppDeps;

beforeAll(async () => {
  mail = await buildMailTestApp({ refuse: (address) => address.startsWith('nobody-') });
  ({ smtp, t, deps } = mail);
});
afterAll(async () => mail?.close());
afterEach(() => t.clock.reset());

async function signUp(email: string, headers: Record<string, string> = {}, language?: 'es' | 'en') {
  const client = new TestClient(t);
  const res = await client.post(
    '/api/auth/signup',
    { email, password: 'correct-horse-battery', fullName: 'Ana Test', ...(language ? { language } : {}) },
    headers,
  );
  expect(res.statusCode).toBe(201);
  return client;
}

const outboxOf = (address: string) =>
  t.database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));

describe('mail through a real SMTP server', () => {
  it('sends the sign-up verification in the language of the sign-up, as text and HTML, without tracking', async () => {
    const es = uniqueEmail('mail-es');
    const en = uniqueEmail('mail-en');
    await signUp(es, {}, 'es');
    // No language in the body: the browser's Accept-Language decides.
    await signUp(en, { 'accept-language': 'en-GB,en;q=0.9,es;q=0.5' });
    const before = smtp.mails.length;
    expect((await sendDueMails(deps)).sent).toBeGreaterThanOrEqual(2);
    await smtp.waitFor(before + 2);

    const [spanish] = smtp.to(es);
    expect(spanish!.subject).toBe('Confirma tu correo electrónico en Flujo');
    expect(spanish!.from?.text).toBe('"Flujo" <no-reply@localhost>');
    expect(spanish!.headers.get('content-language')).toBe('es');
    expect(spanish!.messageId).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
    expect(spanish!.text).toContain('Hola, Ana Test:');
    const link = linkIn(spanish!, '/verify-email?token=');
    expect(link.startsWith(`${t.config.publicUrl}/verify-email?token=`)).toBe(true);
    expect(tokenOf(link)).toMatch(/^[\w-]{43}$/);
    expect(spanish!.html).toContain(`href="${link}"`);
    expect(spanish!.html).toContain('<html lang="es">');
    // No pixels, no remote resources, no rewritten links.
    expect(spanish!.html).not.toMatch(/<img|src=/i);

    const [english] = smtp.to(en);
    expect(english!.subject).toBe('Confirm your e-mail address for Flujo');
    expect(english!.headers.get('content-language')).toBe('en');
    expect(english!.text).toContain('Hi Ana Test,');
    expect((await outboxOf(en))[0]).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
  });

  it('keeps a mail through an SMTP outage and delivers it exactly once when the server is back', async () => {
    const email = uniqueEmail('outage');
    await signUp(email);
    await sendDueMails(deps);
    await smtp.waitFor(smtp.to(email).length === 1 ? 0 : 1);
    expect(smtp.to(email)).toHaveLength(1);

    await smtp.stop();
    const res = await new TestClient(t).post('/api/auth/password-reset/request', { email });
    expect(res.statusCode).toBe(202);
    const outcome = await sendDueMails(deps);
    expect(outcome).toMatchObject({ sent: 0, retrying: 1 });
    const [pending] = (await outboxOf(email)).filter((m) => m.kind === 'password_reset');
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
    expect(pending!.lastError).toMatch(/ECONNREFUSED|connect/i);

    // Not due yet: nothing is tried before the backoff runs out.
    await smtp.start();
    expect((await sendDueMails(deps)).sent).toBe(0);
    t.clock.advance(31_000);
    expect((await sendDueMails(deps)).sent).toBe(1);
    t.clock.advance(10 * 60_000);
    expect((await sendDueMails(deps)).sent).toBe(0);
    await smtp.waitFor(1);
    const resets = smtp.to(email).filter((m) => m.subject === 'Reset your Flujo password');
    expect(resets).toHaveLength(1);
    expect(linkIn(resets[0]!, '/reset-password?token=')).toContain(t.config.publicUrl);
    expect((await outboxOf(email)).find((m) => m.kind === 'password_reset')).toMatchObject({
      status: 'sent',
      attempts: 2,
    });
  });

  it('marks a mail failed at once when the server refuses it for good, and an admin can retry it', async () => {
    const email = uniqueEmail('nobody');
    await signUp(email);
    expect(await sendDueMails(deps)).toMatchObject({ failed: 1 });
    const [failed] = await outboxOf(email);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed!.lastError).toMatch(/550/);

    const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
    const list = await admin.get(`/api/admin/emails?status=failed&q=${encodeURIComponent(email)}`);
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect((list.json() as TAdminEmail[])[0]).toMatchObject({ id: failed!.id, status: 'failed' });

    const retried = await admin.post(`/api/admin/emails/${failed!.id}/retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'pending', attempts: 0 });
    // Only a failed mail can be retried.
    expect((await admin.post(`/api/admin/emails/${failed!.id}/retry`)).statusCode).toBe(409);
    const audit = (await admin.get('/api/admin/audit?action=email_retried')).json() as Array<{
      targetId: string;
    }>;
    expect(audit.map((a) => a.targetId)).toContain(failed!.id);
  });

  it('gives up after the last try and records the error', async () => {
    const email = uniqueEmail('flaky');
    await signUp(email);
    await smtp.stop();
    try {
      for (let i = 1; i <= MAIL_MAX_ATTEMPTS; i += 1) {
        await sendDueMails(deps);
        t.clock.advance(2 * 60 * 60 * 1000);
      }
    } finally {
      await smtp.start();
    }
    expect((await outboxOf(email))[0]).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS });
    expect(await sendDueMails(deps)).toMatchObject({ sent: 0 });
  });

  it('sends a mail left "sending" by an instance that died, once its claim runs out', async () => {
    const email = uniqueEmail('orphan');
    await signUp(email);
    const [row] = await outboxOf(email);
    await t.database.db
      .update(emailOutbox)
      .set({ status: 'sending', attempts: 1, nextAttemptAt: new Date(t.clock.now().getTime() + 60_000) })
      .where(eq(emailOutbox.id, row!.id));
    expect((await sendDueMails(deps)).sent).toBe(0);
    t.clock.advance(61_000);
    expect((await sendDueMails(deps)).sent).toBe(1);
    await smtp.waitFor(1);
    expect(smtp.to(email)).toHaveLength(1);
  });

  it('shares the outbox between instances without sending a mail twice', async () => {
    const emails = Array.from({ length: 12 }, () => uniqueEmail('shared'));
    for (const email of emails) await signUp(email);
    // Two instances' jobs at once (separate connections on PostgreSQL).
    const outcomes = await Promise.all([sendDueMails(deps), sendDueMails(deps), sendDueMails(deps)]);
    expect(outcomes.reduce((n, o) => n + o.sent, 0)).toBe(12);
    for (const email of emails) expect(smtp.to(email), email).toHaveLength(1);
  });
});

describe('without an SMTP server', () => {
  let held: TestApp;
  beforeAll(async () => {
    held = await buildTestApp();
  });
  afterAll(async () => held?.close());

  it('holds every mail in the outbox for admins to read, links included', async () => {
    const email = uniqueEmail('held');
    const res = await new TestClient(held).post('/api/auth/signup', {
      email,
      password: 'correct-horse-battery',
      fullName: 'Held',
      language: 'es',
    });
    expect(res.statusCode).toBe(201);
    expect(await sendDueMails(held.deps)).toEqual({ sent: 0, retrying: 0, failed: 0 });

    const admin = await signInAdmin(held, TEST_ADMIN.email, TEST_ADMIN.password);
    const list = (
      await admin.get(`/api/admin/emails?q=${encodeURIComponent(email)}`)
    ).json() as TAdminEmail[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ to: email, status: 'held', kind: 'email_verification', language: 'es' });
    const detail = (await admin.get(`/api/admin/emails/${list[0]!.id}`)).json() as TAdminEmailDetail;
    expect(detail.text).toMatch(new RegExp(`${held.config.publicUrl}/verify-email\\?token=[\\w-]{43}`));
    expect(detail.html).toContain('/verify-email?token=');
    // Nothing to retry without a server.
    expect((await admin.post(`/api/admin/emails/${list[0]!.id}/retry`)).statusCode).toBe(409);
    // Bad input: an unknown id and a malformed one.
    expect((await admin.get('/api/admin/emails/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await admin.get('/api/admin/emails/not-an-id')).statusCode).toBe(400);
    expect((await admin.get('/api/admin/emails?status=lost')).statusCode).toBe(400);
  });
});
