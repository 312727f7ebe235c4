import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TRunOrigin } from '#shared/contract/executions.js';
import type { TNotificationList, TNotificationSettings } from '#shared/contract/notifications.js';
import { notifications, userProfiles, workflowExecutions } from '#server/db/schema.js';
import type { TestClient } from '#server/test/client.js';
import { signUpUser } from '#server/test/client.js';
import { buildMailTestApp, linkIn, type MailTestApp } from '#server/test/smtp.js';
import { addSurveyWorkflow, testAdminId, withConfig } from '#server/test/test-data.js';
import { applyLedgerEntry } from '../credits/ledger.js';
import { settleRun } from '../executions/settle.js';
import { readEvents } from '../executions/testing/event-stream.js';
import { mailDueNotifications } from './mail-job.js';
import { notifySchedulePaused, notifyScheduleSkipped, warnScheduleUncovered } from './record.js';

let mail: MailTestApp;
let workflowId: string;

beforeAll(async () => {
  mail = await buildMailTestApp();
  const wf = await addSurveyWorkflow(mail.t.database.db, await testAdminId(mail.t), {
    name: { es: 'Resumen semanal', en: 'Weekly summary' },
  });
  workflowId = wf.id;
});
afterAll(async () => mail?.close());

const db = () => mail.t.database.db;

async function person(language: 'es' | 'en', credits = 0) {
  const user = await signUpUser(mail.t, { fullName: language === 'es' ? 'Lucía' : 'Lucy' });
  await user.client.patch('/api/account/profile', { language });
  // Sign-up gave its bonus through the ledger; the balance the test wants is reached the same way.
  const [row] = await db()
    .select({ credits: userProfiles.credits })
    .from(userProfiles)
    .where(eq(userProfiles.id, user.id));
  const change = credits - row!.credits;
  if (change !== 0) {
    await db().transaction((tx) =>
      applyLedgerEntry(
        tx,
        { userId: user.id, amount: change, type: 'admin_adjustment' },
        mail.t.deps.metrics,
      ),
    );
  }
  return user;
}

/** A run the workflow has worked on for `seconds`, ended now by settleRun with `outcome`. */
async function endedRun(
  userId: string,
  seconds: number,
  outcome: Parameters<typeof settleRun>[2],
  origin: TRunOrigin = 'web',
): Promise<string> {
  const now = mail.t.clock.now();
  const [run] = await db()
    .insert(workflowExecutions)
    .values({
      workflowId,
      userId,
      status: 'running',
      origin,
      creditsUsed: 3,
      dispatchedAt: new Date(now.getTime() - seconds * 1000),
      expiresAt: new Date(now.getTime() + 60_000),
    })
    .returning({ id: workflowExecutions.id });
  expect(await settleRun(mail.t.deps, run!.id, outcome)).toBe(true);
  return run!.id;
}

const bellOf = async (client: TestClient) =>
  (await client.get('/api/notifications')).json<TNotificationList>();

async function mailTo(email: string, subject: RegExp): Promise<ParsedMail> {
  await mailDueNotifications(mail.t.deps);
  return mail.newestMail(email, subject);
}

describe('a run that ended while its person was away', () => {
  it('mails a long web run in English: workflow, status, credits, the first lines of the result, the link', async () => {
    const user = await person('en');
    const runId = await endedRun(user.id, 90, {
      status: 'completed',
      fields: {
        outputType: 'text',
        outputData: 'Sales rose 4%.\n\nNew customers: 12\nChurn: 1\nDetails follow',
      },
    });
    const m = await mailTo(user.email, /Weekly summary/);
    expect(m.subject).toBe('Your run of Weekly summary is ready');
    expect(m.headers.get('content-language')).toBe('en');
    expect(m.text).toContain('Hi Lucy,');
    expect(m.text).toContain('Workflow: Weekly summary');
    expect(m.text).toContain('Status: completed');
    expect(m.text).toContain('Credits: 3');
    expect(m.text).toContain('Result: Sales rose 4%. / New customers: 12 / Churn: 1');
    expect(m.text).not.toContain('Details follow');
    expect(linkIn(m, `/my-workflows/${runId}`)).toBe(`${mail.t.config.publicUrl}/my-workflows/${runId}`);
    expect(linkIn(m, '/account#notifications')).toContain(mail.t.config.publicUrl);
    const bell = await bellOf(user.client);
    expect(bell.unread).toBe(1);
    expect(bell.items[0]).toMatchObject({
      kind: 'run_completed',
      runId,
      read: false,
      params: { status: 'completed', credits: 3, workflowName: { en: 'Weekly summary' } },
    });
  });

  it('mails a failed run in Spanish with its reason worded for the person and nothing charged', async () => {
    const user = await person('es');
    await endedRun(user.id, 120, { status: 'failed', errorCode: 'timeout', errorMessage: null });
    const m = await mailTo(user.email, /Resumen semanal/);
    expect(m.subject).toBe('Tu ejecución de Resumen semanal no se completó');
    expect(m.headers.get('content-language')).toBe('es');
    expect(m.text).toContain('Hola, Lucía:');
    expect(m.text).toContain('Estado: fallida');
    expect(m.text).toContain('Créditos: 0');
    expect(m.text).toContain('El workflow no envió un resultado a tiempo.');
    expect(m.html).toContain('<html lang="es">');
    expect((await bellOf(user.client)).items[0]).toMatchObject({
      kind: 'run_failed',
      params: { status: 'failed' },
    });
  });

  it('tells nothing of a web run watched to its end (shorter than notify_after_seconds), and follows the live setting', async () => {
    const user = await person('en');
    await endedRun(user.id, 30, { status: 'completed', fields: { outputData: 'ok' } });
    expect((await bellOf(user.client)).items).toHaveLength(0);
    await withConfig(mail.t, 'notify_after_seconds', 10, async () => {
      await endedRun(user.id, 30, { status: 'completed', fields: { outputData: 'ok' } });
    });
    expect((await bellOf(user.client)).items).toHaveLength(1);
  });

  it('tells of every API and MCP run however short, under the one API/MCP preference', async () => {
    const user = await person('en');
    await endedRun(user.id, 2, { status: 'completed', fields: { outputData: 'api' } }, 'api');
    await endedRun(user.id, 1, { status: 'completed', fields: { outputData: 'mcp' } }, 'mcp');
    await endedRun(user.id, 1, { status: 'completed', fields: { outputData: 'sched' } }, 'schedule');
    expect((await bellOf(user.client)).items.map((n) => n.params.origin).sort()).toEqual([
      'api',
      'mcp',
      'schedule',
    ]);
    const settings = (await user.client.get('/api/notifications/settings')).json<TNotificationSettings>();
    settings.preferences.bell.api = 'none';
    settings.preferences.mail.api = 'none';
    await user.client.put('/api/notifications/settings', settings);
    await endedRun(user.id, 1, { status: 'failed', errorCode: 'timeout', errorMessage: null }, 'mcp');
    await endedRun(user.id, 1, { status: 'completed', fields: { outputData: 'x' } }, 'api');
    expect((await bellOf(user.client)).items).toHaveLength(3);
  });

  it('names the file of a file result, and mails each ending once however often the job runs', async () => {
    const user = await person('en');
    await endedRun(user.id, 300, {
      status: 'completed',
      fields: { outputType: 'file', outputFilename: 'report-week-47.pdf', resultPath: 'x/y.pdf' },
    });
    const m = await mailTo(user.email, /Weekly summary/);
    expect(m.text).toContain('Result: report-week-47.pdf');
    await Promise.all([mailDueNotifications(mail.t.deps), mailDueNotifications(mail.t.deps)]);
    await mail.newestMail(user.email, /Weekly summary/);
    expect(mail.smtp.to(user.email).filter((x) => /Weekly summary/.test(x.subject ?? ''))).toHaveLength(1);
  });

  it('follows the preferences: failures only by mail, nothing under the bell', async () => {
    const user = await person('en');
    const settings: TNotificationSettings = {
      preferences: {
        mail: { web: 'failures', schedule: 'all', api: 'all' },
        bell: { web: 'none', schedule: 'all', api: 'all' },
      },
      lowBalanceThreshold: null,
    };
    const put = await user.client.put('/api/notifications/settings', settings);
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual(settings);
    await endedRun(user.id, 90, { status: 'completed', fields: { outputData: 'fine' } });
    await endedRun(user.id, 90, {
      status: 'failed',
      errorCode: 'workflow_failed',
      errorMessage: 'Bad sheet',
    });
    const rows = await db().select().from(notifications).where(eq(notifications.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'run_failed', inBell: false });
    const m = await mailTo(user.email, /did not complete/);
    expect(m.text).toContain('The workflow said: Bad sheet');
    expect((await bellOf(user.client)).items).toHaveLength(0);
  });

  it('refuses bad settings with a clear error in the reader language and keeps the old ones', async () => {
    const user = await person('es');
    const before = (await user.client.get('/api/notifications/settings')).json<TNotificationSettings>();
    expect(before).toEqual({
      preferences: {
        mail: { web: 'all', schedule: 'all', api: 'all' },
        bell: { web: 'all', schedule: 'all', api: 'all' },
      },
      lowBalanceThreshold: null,
    });
    for (const body of [
      { ...before, lowBalanceThreshold: 0 },
      { ...before, lowBalanceThreshold: 10_000_001 },
      {
        ...before,
        preferences: { ...before.preferences, mail: { web: 'sometimes', schedule: 'all', api: 'all' } },
      },
      { ...before, preferences: { mail: before.preferences.mail } },
      { ...before, extra: true },
    ]) {
      const res = await user.client.put('/api/notifications/settings', body, { 'accept-language': 'es' });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ code: string }>().code).toBe('VALIDATION_ERROR');
      expect(res.json<{ error: string }>().error).toMatch(/^Solicitud no válida: /);
    }
    expect((await user.client.get('/api/notifications/settings')).json()).toEqual(before);
  });
});

describe('the bell', () => {
  it('marks one read, then all; someone else cannot see or read yours', async () => {
    const user = await person('en');
    const other = await person('en');
    await endedRun(user.id, 90, { status: 'completed', fields: { outputData: 'a' } });
    await endedRun(user.id, 90, { status: 'completed', fields: { outputData: 'b' } });
    await endedRun(user.id, 90, { status: 'completed', fields: { outputData: 'c' } });
    const bell = await bellOf(user.client);
    expect(bell.unread).toBe(3);
    const id = bell.items[0]!.id;
    expect((await other.client.post(`/api/notifications/${id}/read`)).statusCode).toBe(404);
    expect((await bellOf(other.client)).items).toHaveLength(0);
    const read = await user.client.post(`/api/notifications/${id}/read`);
    expect(read.json()).toEqual({ unread: 2 });
    expect((await user.client.post(`/api/notifications/${id}/read`)).json()).toEqual({ unread: 2 });
    expect((await user.client.get('/api/notifications/unread-count')).json()).toEqual({ unread: 2 });
    expect((await user.client.post('/api/notifications/read-all')).json()).toEqual({ unread: 0 });
    expect((await bellOf(user.client)).items.every((n) => n.read)).toBe(true);
    // Pages: newest first, then older than the last one shown.
    const first = (await user.client.get('/api/notifications?limit=2')).json<TNotificationList>();
    expect(first.items).toHaveLength(2);
    const rest = (
      await user.client.get(
        `/api/notifications?limit=2&before=${encodeURIComponent(first.items[1]!.createdAt)}`,
      )
    ).json<TNotificationList>();
    expect(rest.items.map((n) => n.id)).not.toContain(first.items[0]!.id);
    expect((await user.client.get('/api/notifications?limit=51')).statusCode).toBe(400);
    expect((await user.client.get('/api/notifications?before=yesterday')).statusCode).toBe(400);
    expect((await user.client.post('/api/notifications/not-an-id/read')).statusCode).toBe(400);
  });

  it('tells an open event stream the unread count when a run ends and when it is read', async () => {
    const address = await mail.t.app.listen({ port: 0, host: '127.0.0.1' });
    const user = await person('en');
    const stream = await readEvents(`${address}/api/notifications/events`, { cookie: user.client.cookie! });
    try {
      expect(stream.status).toBe(200);
      expect(JSON.parse((await stream.next())!.data)).toEqual({ unread: 0 });
      await endedRun(user.id, 90, { status: 'completed', fields: { outputData: 'live' } });
      const added = await stream.next();
      expect(added?.event).toBe('unread');
      expect(JSON.parse(added!.data)).toEqual({ unread: 1 });
      await user.client.post('/api/notifications/read-all');
      expect(JSON.parse((await stream.next())!.data)).toEqual({ unread: 0 });
    } finally {
      stream.close();
    }
    const anonymous = await readEvents(`${address}/api/notifications/events`);
    expect(anonymous.status).toBe(401);
  });
});

describe('a deleted account', () => {
  it('keeps no notification and is never mailed one', async () => {
    const user = await person('en');
    await endedRun(user.id, 90, { status: 'completed', fields: { outputData: 'gone' } });
    const res = await user.client.post('/api/account/delete', { password: user.password });
    expect(res.statusCode).toBe(200);
    expect(await db().select().from(notifications).where(eq(notifications.userId, user.id))).toEqual([]);
  });
});

describe('low balance', () => {
  const debit = (userId: string, amount: number) =>
    db().transaction((tx) =>
      applyLedgerEntry(
        tx,
        { userId, amount: -amount, type: 'usage', noteKind: 'workflow_run' },
        mail.t.deps.metrics,
      ),
    );
  const credit = (userId: string, amount: number) =>
    db().transaction((tx) =>
      applyLedgerEntry(tx, { userId, amount, type: 'admin_adjustment' }, mail.t.deps.metrics),
    );
  const lowRows = async (userId: string) =>
    (await db().select().from(notifications).where(eq(notifications.userId, userId))).filter(
      (n) => n.kind === 'low_balance',
    );

  it('is off by default: no warning however low the balance goes', async () => {
    const user = await person('en', 20);
    await debit(user.id, 19);
    expect(await lowRows(user.id)).toHaveLength(0);
  });

  it('warns once when the balance falls below the threshold, again only after it rose back (Spanish)', async () => {
    const user = await person('es', 20);
    const settings = (await user.client.get('/api/notifications/settings')).json<TNotificationSettings>();
    expect(
      (await user.client.put('/api/notifications/settings', { ...settings, lowBalanceThreshold: 10 }))
        .statusCode,
    ).toBe(200);
    await debit(user.id, 5); // 15: above
    expect(await lowRows(user.id)).toHaveLength(0);
    await debit(user.id, 6); // 9: below
    await debit(user.id, 4); // 5: still below, no second warning
    expect(await lowRows(user.id)).toHaveLength(1);
    const m = await mailTo(user.email, /saldo/);
    expect(m.subject).toBe('Tu saldo de Flujo está por debajo de 10 créditos');
    expect(m.text).toContain('Tu saldo es de 9 créditos');
    expect(linkIn(m, '/buy-credits')).toBe(`${mail.t.config.publicUrl}/buy-credits`);
    expect((await bellOf(user.client)).items[0]).toMatchObject({
      kind: 'low_balance',
      params: { balance: 9, threshold: 10 },
    });
    await credit(user.id, 5); // exactly 10: not below any more
    await debit(user.id, 1); // 9 again: warns again
    expect(await lowRows(user.id)).toHaveLength(2);
  });

  it('warns in English, and a threshold set above the balance does not warn for the past', async () => {
    const user = await person('en', 3);
    const settings = (await user.client.get('/api/notifications/settings')).json<TNotificationSettings>();
    await user.client.put('/api/notifications/settings', { ...settings, lowBalanceThreshold: 5 });
    await debit(user.id, 1);
    expect(await lowRows(user.id)).toHaveLength(0);
    await credit(user.id, 10);
    await debit(user.id, 9); // 3
    const m = await mailTo(user.email, /balance/);
    expect(m.subject).toBe('Your Flujo balance is below 5 credits');
    expect(m.text).toContain('Your balance is 3 credits');
  });
});

describe('schedules (called by the schedules module)', () => {
  const event = (userId: string) => ({
    userId,
    scheduleId: '00000000-0000-4000-8000-00000000a001',
    workflowId,
    workflowName: { es: 'Resumen semanal', en: 'Weekly summary' },
    savedInputName: 'Monday report',
    dueAt: '2026-11-30T08:00:00.000Z',
  });

  it('mails a skipped and a paused schedule in both languages', async () => {
    const en = await person('en');
    const es = await person('es');
    await db().transaction((tx) =>
      notifyScheduleSkipped(tx, { ...event(en.id), reason: 'insufficient_credits' }),
    );
    await db().transaction((tx) =>
      notifyScheduleSkipped(tx, { ...event(es.id), reason: 'insufficient_credits' }),
    );
    await db().transaction((tx) =>
      notifySchedulePaused(tx, { ...event(es.id), reason: 'workflow_unavailable' }),
    );
    await db().transaction((tx) =>
      notifySchedulePaused(tx, { ...event(en.id), reason: 'workflow_unavailable' }),
    );
    const skipped = await mailTo(en.email, /skipped/);
    expect(skipped.subject).toBe('A scheduled run of Weekly summary was skipped');
    expect(skipped.headers.get('content-language')).toBe('en');
    expect(skipped.text).toContain('"Monday report" (Weekly summary) due on November 30, 2026');
    expect(skipped.text).toContain('your balance did not cover it');
    expect(linkIn(skipped, '/account#notifications')).toContain(mail.t.config.publicUrl);
    const omitida = await mailTo(es.email, /omitió/);
    expect(omitida.subject).toBe('Se omitió una ejecución programada de Resumen semanal');
    expect(omitida.headers.get('content-language')).toBe('es');
    expect(omitida.text).toContain('Hola, Lucía:');
    expect(omitida.text).toContain(
      '«Monday report» (Resumen semanal) prevista para el 30 de noviembre de 2026',
    );
    expect(omitida.text).toContain('no se inició: tu saldo no alcanzaba. No se cobró nada.');
    const paused = await mailTo(es.email, /pausó/);
    expect(paused.subject).toBe('Se pausó tu programación de Resumen semanal');
    expect(paused.text).toContain('el workflow no está disponible');
    const pausedEn = await mailTo(en.email, /paused/);
    expect(pausedEn.subject).toBe('Your schedule of Weekly summary was paused');
    expect(pausedEn.text).toContain('Hi Lucy,');
    expect(pausedEn.text).toContain(
      'skipped three runs in a row (the last one because the workflow is not available), so it was paused',
    );
    expect((await bellOf(en.client)).items.map((n) => n.kind)).toEqual(
      expect.arrayContaining(['schedule_skipped', 'schedule_paused']),
    );
  });

  it('warns once of a due run the balance will not cover, in both languages', async () => {
    const user = await person('en', 1);
    const warn = () =>
      db().transaction((tx) => warnScheduleUncovered(tx, { ...event(user.id), balance: 1, credits: 3 }));
    expect(await warn()).toBe(true);
    expect(await warn()).toBe(false);
    const m = await mailTo(user.email, /will not cover/);
    expect(m.text).toContain('costs 3 credits and your balance is 1');
    const es = await person('es', 1);
    await db().transaction((tx) => warnScheduleUncovered(tx, { ...event(es.id), balance: 1, credits: 3 }));
    const aviso = await mailTo(es.email, /no cubrirá/);
    expect(aviso.subject).toBe('Tu saldo no cubrirá una ejecución programada de Resumen semanal');
    expect(aviso.headers.get('content-language')).toBe('es');
    expect(aviso.text).toContain('cuesta 3 créditos y tu saldo es de 1. Si no añades créditos, se omitirá.');
  });
});
