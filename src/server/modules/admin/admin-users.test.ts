import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TAdminConfigEntry, TAdminUser } from '#shared/contract/admin.js';
import { adminAuditLogs, creditTransactions, sessions, userProfiles } from '#server/db/schema.js';
import { signUpUser, TestClient } from '#server/test/client.js';
import { auditRowsFor } from './testing/test-data.js';
import { useAdminApp } from '#server/test/test-data.js';

const { t, admin, adminId } = useAdminApp();

const db = () => t.database.db;
const auditCount = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(adminAuditLogs)
  )[0]?.n ?? 0;
const ledgerOf = (userId: string) =>
  db().select().from(creditTransactions).where(eq(creditTransactions.userId, userId));
const balanceOf = async (userId: string) =>
  (await db().select().from(userProfiles).where(eq(userProfiles.id, userId)))[0]?.credits;

describe('adjusting credits', () => {
  it('adds and takes credits through the ledger with the reason as notes, and audits it', async () => {
    const { id, client } = await signUpUser(t);
    const add = await admin.post('/api/admin/users/adjust-credits', {
      userId: id,
      amount: 10,
      reason: 'Promo',
    });
    expect(add.statusCode).toBe(200);
    expect(add.json()).toEqual({ userId: id, credits: 15 });
    const take = await admin.post('/api/admin/users/adjust-credits', {
      userId: id,
      amount: -4,
      reason: '  Duplicate grant ',
    });
    expect(take.json()).toEqual({ userId: id, credits: 11 });
    expect((await client.get('/api/auth/me')).json()).toMatchObject({ credits: 11 });

    const rows = (await ledgerOf(id)).filter((r) => r.transactionType === 'admin_adjustment');
    expect(rows.map((r) => [r.amount, r.notes]).sort()).toEqual([
      [-4, 'Duplicate grant'],
      [10, 'Promo'],
    ]);
    const audits = await auditRowsFor(t, id);
    expect(audits.map((a) => [a.actionType, a.adminUserId, a.targetType])).toEqual([
      ['credits_adjusted', adminId(), 'user'],
      ['credits_adjusted', adminId(), 'user'],
    ]);
    expect(audits[1]?.details).toMatchObject({ amount: -4, reason: 'Duplicate grant', balanceAfter: 11 });
  });

  it('never takes a balance below zero: 409 with a clear message, nothing written', async () => {
    const { id } = await signUpUser(t);
    const [ledgerBefore, auditsBefore] = [(await ledgerOf(id)).length, await auditCount()];
    const res = await admin.post('/api/admin/users/adjust-credits', {
      userId: id,
      amount: -6,
      reason: 'Oops',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', error: expect.stringMatching(/below zero/) });
    expect(await balanceOf(id)).toBe(5);
    expect([(await ledgerOf(id)).length, await auditCount()]).toEqual([ledgerBefore, auditsBefore]);

    const toZero = await admin.post('/api/admin/users/adjust-credits', {
      userId: id,
      amount: -5,
      reason: 'All',
    });
    expect(toZero.json()).toEqual({ userId: id, credits: 0 });
  });

  it.each([
    ['a zero amount', { amount: 0, reason: 'x' }],
    ['a fractional amount', { amount: 1.5, reason: 'x' }],
    ['a blank reason', { amount: 3, reason: '   ' }],
    ['a missing reason', { amount: 3 }],
    ['an amount given as text', { amount: '3', reason: 'x' }],
  ])('refuses %s with 400 and writes nothing', async (_label, body) => {
    const { id } = await signUpUser(t);
    const auditsBefore = await auditCount();
    const res = await admin.post('/api/admin/users/adjust-credits', { userId: id, ...body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await balanceOf(id)).toBe(5);
    expect((await ledgerOf(id)).length).toBe(1);
    expect(await auditCount()).toBe(auditsBefore);
  });

  it('answers 404 for a user that does not exist', async () => {
    const res = await admin.post('/api/admin/users/adjust-credits', {
      userId: '00000000-0000-4000-8000-000000000009',
      amount: 3,
      reason: 'x',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('suspending and reactivating a user', () => {
  it("suspension ends the user's open session at once and blocks sign-in; reactivation lets them back", async () => {
    const { id, client, email, password } = await signUpUser(t);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);

    const res = await admin.patch(`/api/admin/users/${id}`, { accountStatus: 'suspended' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, email, accountStatus: 'suspended', isAdmin: false, credits: 5 });
    expect((await client.get('/api/auth/me')).statusCode).toBe(401);
    expect(await db().select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    const signin = await new TestClient(t).post('/api/auth/signin', { email, password });
    expect(signin.statusCode).toBe(403);
    expect(signin.json()).toMatchObject({ code: 'ACCOUNT_SUSPENDED' });

    const back = await admin.patch(`/api/admin/users/${id}`, { accountStatus: 'active' });
    expect(back.json()).toMatchObject({ accountStatus: 'active' });
    expect((await new TestClient(t).post('/api/auth/signin', { email, password })).statusCode).toBe(200);

    const audits = await auditRowsFor(t, id);
    expect(audits.map((a) => a.actionType)).toEqual(['user_suspended', 'user_updated']);
    expect(audits[0]?.details).toMatchObject({
      changes: { accountStatus: { from: 'active', to: 'suspended' } },
    });
  });

  it('an admin cannot suspend or demote themself (409, nothing changes)', async () => {
    const auditsBefore = await auditCount();
    const suspend = await admin.patch(`/api/admin/users/${adminId()}`, { accountStatus: 'suspended' });
    expect(suspend.statusCode).toBe(409);
    const demote = await admin.patch(`/api/admin/users/${adminId()}`, { isAdmin: false });
    expect(demote.statusCode).toBe(409);
    expect((await admin.get('/api/auth/me')).json()).toMatchObject({
      isAdmin: true,
      account_status: 'active',
    });
    expect(await auditCount()).toBe(auditsBefore);
  });

  it('promotes a user to admin, audited as user_updated', async () => {
    const { id, client } = await signUpUser(t);
    const res = await admin.patch(`/api/admin/users/${id}`, { isAdmin: true });
    expect(res.json()).toMatchObject({ isAdmin: true });
    expect((await client.get('/api/admin/config')).statusCode).toBe(200);
    expect((await auditRowsFor(t, id)).map((a) => a.actionType)).toEqual(['user_updated']);
  });

  it.each([
    ['an unknown status', { accountStatus: 'banned' }],
    ['an empty change', {}],
  ])('refuses %s with 400', async (_label, body) => {
    const { id } = await signUpUser(t);
    const res = await admin.patch(`/api/admin/users/${id}`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('answers 404 for a user that does not exist', async () => {
    const res = await admin.patch('/api/admin/users/00000000-0000-4000-8000-00000000000a', {
      accountStatus: 'suspended',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('deleted accounts in the user list', () => {
  const listed = async (query: string) => {
    const res = await admin.get(`/api/admin/users?limit=500&${query}`);
    expect(res.statusCode).toBe(200);
    return { rows: res.json() as TAdminUser[], total: Number(res.headers['x-total-count']) };
  };

  it('are left out by default and by every status, and listed (with the count) under status=deleted', async () => {
    const kept = await signUpUser(t, { fullName: 'Kept Person' });
    const gone = await signUpUser(t, { fullName: 'Gone Person' });
    const before = await listed('');
    const deletedBefore = await listed('status=deleted');
    expect((await gone.client.post('/api/account/delete', { password: gone.password })).statusCode).toBe(200);

    const live = await listed('');
    expect(live.rows.map((u) => u.id)).toContain(kept.id);
    expect(live.rows.map((u) => u.id)).not.toContain(gone.id);
    expect(live.total).toBe(before.total - 1);
    expect(live.rows.every((u) => u.deletedAt === null)).toBe(true);
    // A deleted account is stored as suspended; the suspended filter still shows only live accounts.
    for (const status of ['all', 'active', 'suspended']) {
      expect((await listed(`status=${status}`)).rows.map((u) => u.id)).not.toContain(gone.id);
    }

    const deleted = await listed('status=deleted');
    expect(deleted.total).toBe(deletedBefore.total + 1);
    expect(deleted.rows.find((u) => u.id === gone.id)).toMatchObject({
      email: `deleted-${gone.id}@deleted.invalid`,
      fullName: null,
      deletedAt: expect.any(String),
    });
    expect(deleted.rows.map((u) => u.id)).not.toContain(kept.id);
    // The search applies to both sides alike.
    expect((await listed(`q=${gone.id.slice(0, 8)}`)).rows).toEqual([]);
    expect((await listed(`q=${gone.id.slice(0, 8)}&status=deleted`)).rows.map((u) => u.id)).toEqual([
      gone.id,
    ]);
  });

  it('refuses an unknown status in the reader’s language', async () => {
    const res = await admin.get('/api/admin/users?status=removed', { 'accept-language': 'es' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: expect.stringMatching(/^Solicitud no válida/),
    });
  });

  it('each side of the filter is served by its own index, newest first', async () => {
    for (const [where, index] of [
      ['deleted_at is null', 'user_profiles_live_created_idx'],
      ['deleted_at is not null', 'user_profiles_deleted_created_idx'],
    ]) {
      await db().transaction(async (tx) => {
        // Small tables are scanned whatever the indexes; the plan is what a large one would get.
        await tx.execute(sql`set local enable_seqscan = off`);
        const plan = await tx.execute(
          sql.raw(`explain select * from user_profiles where ${where} order by created_at desc limit 20`),
        );
        expect(JSON.stringify(plan)).toContain(index);
      });
    }
  });
});

describe('the operator address given to suspended people (support_email)', () => {
  const supportEntry = async () =>
    ((await admin.get('/api/admin/config')).json() as TAdminConfigEntry[]).find(
      (e) => e.key === 'support_email',
    )!;

  it('is empty by default, refuses what is not an address, and once set is named in the refusal in both languages', async () => {
    const entry = await supportEntry();
    expect(entry.value).toBe('');
    const { id, email, password } = await signUpUser(t);
    await admin.patch(`/api/admin/users/${id}`, { accountStatus: 'suspended' });
    const signIn = (language: string) =>
      new TestClient(t).post('/api/auth/signin', { email, password }, { 'accept-language': language });

    expect((await signIn('en')).json()).toEqual({
      error: 'This account is suspended',
      code: 'ACCOUNT_SUSPENDED',
      key: 'default',
    });

    for (const value of ['not an address', 'a@', 42]) {
      const bad = await admin.patch(`/api/admin/config/${entry.id}`, { value }, { 'accept-language': 'es' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        error: expect.stringMatching(/support_email/),
      });
    }
    expect((await supportEntry()).value).toBe('');

    expect(
      (await admin.patch(`/api/admin/config/${entry.id}`, { value: 'ayuda@flujo.example' })).statusCode,
    ).toBe(200);
    try {
      const en = await signIn('en');
      expect(en.statusCode).toBe(403);
      expect(en.json()).toEqual({
        error: 'This account is suspended. To ask why or to appeal, write to ayuda@flujo.example',
        code: 'ACCOUNT_SUSPENDED',
        key: 'withContact',
        params: { email: 'ayuda@flujo.example' },
        details: { supportEmail: 'ayuda@flujo.example' },
      });
      expect((await signIn('es')).json()).toMatchObject({
        error:
          'Esta cuenta está suspendida. Para preguntar el motivo o reclamar, escribe a ayuda@flujo.example',
      });
    } finally {
      await admin.patch(`/api/admin/config/${entry.id}`, { value: '' });
    }
    expect((await signIn('es')).json()).toEqual({
      error: 'Esta cuenta está suspendida',
      code: 'ACCOUNT_SUSPENDED',
      key: 'default',
    });
  });
});

describe('the public configuration', () => {
  it('tells anyone whether translation is available, and nothing else', async () => {
    const res = await new TestClient(t).get('/api/config');
    expect(res.statusCode).toBe(200);
    // The test app configures no language model.
    expect(res.json()).toEqual({ translationAvailable: false });
  });
});

describe('live configuration', () => {
  const entries = async () => (await admin.get('/api/admin/config')).json() as TAdminConfigEntry[];
  const entry = async (key: string) => {
    const found = (await entries()).find((e) => e.key === key);
    if (!found) throw new Error(`no config entry ${key}`);
    return found;
  };

  it('lists every entry with its key, description and value', async () => {
    const list = await entries();
    expect(list.map((e) => e.key).sort()).toEqual([
      'alert_consecutive_failures',
      'alert_failure_rate_percent',
      'api_requests_per_minute',
      'auto_pause_consecutive_failures',
      'chat_max_message_chars',
      'chat_max_messages',
      'default_credits_per_execution',
      'delivery_log_entries_per_run',
      'max_event_streams_per_user',
      'max_input_file_mb',
      'max_result_file_mb',
      'notify_after_seconds',
      'open_runs_per_user',
      'password_reset_minutes',
      'require_email_verification',
      'result_retention_days',
      'saved_inputs_per_account',
      'schedule_min_interval_minutes',
      'schedules_per_account',
      'signup_bonus_credits',
      'signups_per_ip_per_hour',
      'support_email',
      'webhook_timeout_minutes',
      'webhooks_per_account',
    ]);
    expect(list.find((e) => e.key === 'webhook_timeout_minutes')).toMatchObject({
      value: 15,
      description: { en: expect.any(String), es: expect.any(String) },
    });
  });

  it('a new sign-up bonus applies to the very next sign-up, and the change is audited with both values', async () => {
    const bonus = await entry('signup_bonus_credits');
    const res = await admin.patch(`/api/admin/config/${bonus.id}`, { value: 12 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ key: 'signup_bonus_credits', value: 12 });
    try {
      const { client } = await signUpUser(t);
      expect((await client.get('/api/auth/me')).json()).toMatchObject({ credits: 12 });
      const [audit] = await db()
        .select()
        .from(adminAuditLogs)
        .where(and(eq(adminAuditLogs.targetId, bonus.id), eq(adminAuditLogs.actionType, 'config_updated')));
      expect(audit?.details).toEqual({ key: 'signup_bonus_credits', from: 5, to: 12 });
    } finally {
      await admin.patch(`/api/admin/config/${bonus.id}`, { value: 5 });
    }
  });

  it.each([
    ['a negative timeout', 'webhook_timeout_minutes', -5],
    ['a timeout given as text', 'webhook_timeout_minutes', '15'],
    ['a fractional bonus', 'signup_bonus_credits', 2.5],
    ['a result file over 10 MB', 'max_result_file_mb', 11],
    ['no value at all', 'chat_max_messages', undefined],
    ['no open run at all', 'open_runs_per_user', 0],
  ])("refuses %s by the key's own schema (400) and keeps the value", async (_label, key, value) => {
    const before = await entry(key);
    const auditsBefore = await auditCount();
    const res = await admin.patch(`/api/admin/config/${before.id}`, value === undefined ? {} : { value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await entry(key)).value).toEqual(before.value);
    expect(await auditCount()).toBe(auditsBefore);
  });

  it('answers 404 for an entry that does not exist', async () => {
    const res = await admin.patch('/api/admin/config/00000000-0000-4000-8000-00000000000b', { value: 3 });
    expect(res.statusCode).toBe(404);
  });
});
