import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TAdminConfigEntry } from '#shared/contract/admin.js';
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
      'api_requests_per_minute',
      'chat_max_message_chars',
      'chat_max_messages',
      'default_credits_per_execution',
      'max_event_streams_per_user',
      'max_input_file_mb',
      'max_result_file_mb',
      'password_reset_minutes',
      'require_email_verification',
      'result_retention_days',
      'signup_bonus_credits',
      'signups_per_ip_per_hour',
      'webhook_timeout_minutes',
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
