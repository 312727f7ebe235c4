import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TWebhook, TWebhookCreated } from '#shared/contract/webhooks.js';
import { signUpUser } from '#server/test/client.js';
import { buildMailTestApp, linkIn, type MailTestApp } from '#server/test/smtp.js';
import { deliverDueWebhooks, FAILING_DISABLE_MS } from './delivery.js';
import { type Receiver, startReceiver } from './testing/receiver.js';

/*
 * The mail an endpoint's owner gets when it is turned off (issue 25, decision 143), through the real SMTP test
 * server and parsed, in both languages: after 3 days of failures, and at once on a 410.
 */

let mail: MailTestApp;
const receivers: Receiver[] = [];
beforeAll(async () => {
  // The receivers listen on loopback.
  mail = await buildMailTestApp({}, { ALLOW_PRIVATE_WEBHOOKS: 'true' });
});
afterEach(async () => {
  mail.t.clock.reset();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(async () => mail?.close());

async function endpointOf(language: 'es' | 'en', status: number) {
  const r = await startReceiver();
  receivers.push(r);
  r.status = status;
  const user = await signUpUser(mail.t, { fullName: language === 'es' ? 'Marta' : 'Mark' });
  await user.client.patch('/api/account/profile', { language });
  const created = await user.client.post('/api/account/webhooks', { url: r.url, events: ['credits.low'] });
  expect(created.statusCode).toBe(201);
  const { id } = created.json<TWebhookCreated>();
  const sendTest = async () =>
    expect((await user.client.post(`/api/account/webhooks/${id}/test`)).statusCode).toBe(202);
  const state = async () =>
    (await user.client.get('/api/account/webhooks'))
      .json<{ webhooks: TWebhook[] }>()
      .webhooks.find((w) => w.id === id)!;
  return { r, user, id, sendTest, state };
}

const deliver = () => deliverDueWebhooks(mail.t.deps);
const webhooksLink = () => `${mail.t.config.publicUrl}/account?section=webhooks`;

/** Fails every delivery for 3 days, then one more attempt turns the endpoint off. */
async function failForThreeDays(e: Awaited<ReturnType<typeof endpointOf>>) {
  await e.sendTest();
  await deliver();
  mail.t.clock.advance(FAILING_DISABLE_MS - 60_000);
  await e.sendTest();
  await deliver();
  expect((await e.state()).disabledReason).toBeNull();
  mail.t.clock.advance(60_000);
  await deliver();
  expect((await e.state()).disabledReason).toBe('failing');
}

describe('the mail of a webhook turned off', () => {
  it('after 3 days of failures, in Spanish', async () => {
    const e = await endpointOf('es', 500);
    await failForThreeDays(e);
    const m = await mail.newestMail(e.user.email, /webhooks/);
    expect(m.subject).toBe('Se desactivó uno de tus webhooks de Flujo');
    expect(m.headers.get('content-language')).toBe('es');
    expect(m.text).toContain('Hola, Marta:');
    expect(m.text).toContain(
      `Todas las entregas a tu webhook ${e.r.url} han fallado durante 3 días, así que dejamos de enviarle eventos.`,
    );
    expect(m.html).toContain('<html lang="es">');
    expect(linkIn(m, '/account?section=webhooks')).toBe(webhooksLink());
    // One mail for the one time it was turned off.
    expect(mail.smtp.to(e.user.email).filter((x) => /webhooks/.test(x.subject ?? ''))).toHaveLength(1);
  });

  it('after 3 days of failures, in English', async () => {
    const e = await endpointOf('en', 500);
    await failForThreeDays(e);
    const m = await mail.newestMail(e.user.email, /webhook/);
    expect(m.subject).toBe('A Flujo webhook of yours was turned off');
    expect(m.headers.get('content-language')).toBe('en');
    expect(m.text).toContain('Hi Mark,');
    expect(m.text).toContain(
      `Every delivery to your webhook ${e.r.url} has failed for 3 days, so we stopped sending it events.`,
    );
    expect(linkIn(m, '/account?section=webhooks')).toBe(webhooksLink());
  });

  it('at once on a 410, in both languages', async () => {
    for (const [language, subject, text] of [
      [
        'es',
        'Se desactivó uno de tus webhooks de Flujo',
        'respondió 410 Gone, así que dejamos de enviarle eventos.',
      ],
      [
        'en',
        'A Flujo webhook of yours was turned off',
        'answered 410 Gone, so we stopped sending it events.',
      ],
    ] as const) {
      const e = await endpointOf(language, 410);
      await e.sendTest();
      await deliver();
      expect((await e.state()).disabledReason).toBe('gone');
      const m = await mail.newestMail(e.user.email, /webhook/);
      expect(m.subject).toBe(subject);
      expect(m.text).toContain(`${e.r.url} ${text}`);
    }
  });
});
