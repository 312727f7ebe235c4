import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TAdminWorkflowDetail, TWorkflowSecret } from '#shared/contract/admin.js';
import {
  adminAuditLogs,
  creditTransactions,
  userProfiles,
  userWorkflows,
  workflowExecutions,
} from '#server/db/schema.js';
import { signUpUser, type TestClient } from '#server/test/client.js';
import { TEST_ADMIN } from '#server/test/harness.js';
import { chargeRun } from '../credits/service.js';
import { headerTokenFor } from '../workflows/secrets.js';
import { auditRowsFor } from './testing/test-data.js';
import { chatbotWorkflowInput, useAdminApp } from '#server/test/test-data.js';

const { t, admin, adminId } = useAdminApp();

const db = () => t.database.db;
const count = async (table: typeof userWorkflows | typeof adminAuditLogs) =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
  )[0]?.n ?? 0;

async function create(
  overrides: Parameters<typeof chatbotWorkflowInput>[1] = {},
): Promise<TAdminWorkflowDetail> {
  const res = await admin.post('/api/admin/workflows', chatbotWorkflowInput(adminId(), overrides));
  expect(res.statusCode).toBe(201);
  return res.json();
}

const catalogueIds = async (client: TestClient) =>
  ((await client.get('/api/workflows/public')).json() as Array<{ id: string }>).map((w) => w.id);

describe('creating a workflow', () => {
  it('stores every field of the form, answers the full workflow and audits it without the secret', async () => {
    const res = await admin.post(
      '/api/admin/workflows',
      chatbotWorkflowInput(adminId(), { creditsPerExecution: 3, isPublic: false }),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json() as TAdminWorkflowDetail;
    expect(body).toMatchObject({
      name: { es: 'Redactor de correos', en: 'E-mail writer' },
      category: { es: 'Ventas', en: 'Sales' },
      owner: { id: adminId(), email: TEST_ADMIN.email },
      userId: adminId(),
      isPublic: false,
      isActive: true,
      executionCount: 0,
      interactionType: 'chatbot',
      creditsPerExecution: 3,
      aiPrompt: 'Ask for the recipient and the goal of the e-mail.',
      surveyQuestions: [],
    });
    expect(JSON.stringify(body)).not.toContain('whsec_');

    const [audit] = await auditRowsFor(t, body.id);
    expect(audit).toMatchObject({
      actionType: 'workflow_created',
      targetType: 'workflow',
      adminUserId: adminId(),
    });
    expect(audit?.details).toMatchObject({ name: body.name, creditsPerExecution: 3 });
    expect(JSON.stringify(audit?.details)).not.toContain('whsec_');
  });

  it('creates a survey with its questions', async () => {
    const body = await create({
      interactionType: 'survey',
      welcomeMessage: null,
      aiPrompt: null,
      surveyQuestions: [
        { id: 'q1', question: { es: '¿Empresa?', en: 'Company?' }, type: 'text', options: [] },
        { id: 'q2', question: { es: 'Canal', en: 'Channel' }, type: 'checkbox', options: ['Email', 'Phone'] },
      ],
    });
    expect(body.interactionType).toBe('survey');
    expect(body.surveyQuestions.map((q) => q.type)).toEqual(['text', 'checkbox']);
    expect(body.welcomeMessage).toBeNull();
  });

  it.each([
    ['an owner that does not exist', { userId: '00000000-0000-4000-8000-000000000001' }],
    ['credits per execution below 1', { creditsPerExecution: 0 }],
    ['a webhook URL that is not http(s)', { webhookUrl: 'ftp://files.example.com/x' }],
    ['a blank English name', { name: { es: 'Nombre', en: '  ' } }],
    ['a chatbot without an AI prompt', { aiPrompt: null }],
    ['a survey without questions', { interactionType: 'survey' as const, surveyQuestions: [] }],
  ])('refuses %s with 400 and writes nothing', async (_label, overrides) => {
    const [workflows, audits] = [await count(userWorkflows), await count(adminAuditLogs)];
    const res = await admin.post('/api/admin/workflows', chatbotWorkflowInput(adminId(), overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String) });
    expect([await count(userWorkflows), await count(adminAuditLogs)]).toEqual([workflows, audits]);
  });
});

describe('reading and changing a workflow', () => {
  it('answers the full workflow for the edit form, and 404 for an unknown id', async () => {
    const created = await create();
    const res = await admin.get(`/api/admin/workflows/${created.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
    const missing = await admin.get('/api/admin/workflows/00000000-0000-4000-8000-000000000002');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('deactivating takes it out of the catalogue at once and is audited as a status change', async () => {
    const created = await create();
    const { client: user } = await signUpUser(t);
    expect(await catalogueIds(user)).toContain(created.id);

    const res = await admin.patch(`/api/admin/workflows/${created.id}`, { isActive: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ isActive: false });
    expect(new Date(res.json().updatedAt).getTime()).toBeGreaterThan(new Date(created.updatedAt).getTime());
    expect(await catalogueIds(user)).not.toContain(created.id);
    const start = await user.post('/api/executions/start', { workflowId: created.id });
    expect(start.statusCode).toBeGreaterThanOrEqual(400);
    expect(start.statusCode).toBeLessThan(500);

    const again = await admin.patch(`/api/admin/workflows/${created.id}`, { isActive: true });
    expect(again.json()).toMatchObject({ isActive: true });
    expect(await catalogueIds(user)).toContain(created.id);

    const audits = await auditRowsFor(t, created.id);
    expect(audits.map((a) => a.actionType)).toEqual([
      'workflow_created',
      'workflow_status_changed',
      'workflow_status_changed',
    ]);
    expect(audits[1]?.details).toMatchObject({ isActive: { from: true, to: false } });
  });

  it('an edit changes only the given fields and records which ones changed', async () => {
    const created = await create();
    const res = await admin.patch(`/api/admin/workflows/${created.id}`, {
      name: { es: 'Redactor', en: 'Writer' },
      isPublic: false,
      creditsPerExecution: 2,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: { es: 'Redactor', en: 'Writer' },
      isPublic: false,
      creditsPerExecution: 2,
      description: created.description,
      aiPrompt: created.aiPrompt,
      webhookUrl: created.webhookUrl,
    });
    const audits = await auditRowsFor(t, created.id);
    expect(audits.at(-1)).toMatchObject({ actionType: 'workflow_updated' });
    expect(audits.at(-1)?.details).toMatchObject({
      changedFields: expect.arrayContaining(['name', 'isPublic', 'creditsPerExecution']),
      changes: { isPublic: { from: true, to: false }, creditsPerExecution: { from: 1, to: 2 } },
    });
  });

  it.each([
    ['a change that breaks the rules of a whole workflow', { interactionType: 'survey' }],
    ['credits per execution of 0', { creditsPerExecution: 0 }],
    ['an unknown field', { secretToken: 'whsec_mine' }],
    ['an empty change', {}],
    ['an owner that does not exist', { userId: '00000000-0000-4000-8000-000000000003' }],
  ])('refuses %s with 400 and changes nothing', async (_label, patch) => {
    const created = await create();
    const audits = await count(adminAuditLogs);
    const res = await admin.patch(`/api/admin/workflows/${created.id}`, patch);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await admin.get(`/api/admin/workflows/${created.id}`)).json()).toEqual(created);
    expect(await count(adminAuditLogs)).toBe(audits);
  });

  it('a change to the values it already has changes nothing and records nothing', async () => {
    const created = await create();
    const audits = await count(adminAuditLogs);
    const same = await admin.patch(`/api/admin/workflows/${created.id}`, {
      isPublic: created.isPublic,
      name: created.name,
    });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toEqual(created);
    const active = await admin.patch(`/api/admin/workflows/${created.id}`, { isActive: true });
    expect(active.json()).toEqual(created);
    expect(await count(adminAuditLogs)).toBe(audits);
  });

  it('answers 404 when changing a workflow that does not exist', async () => {
    const res = await admin.patch('/api/admin/workflows/00000000-0000-4000-8000-000000000004', {
      isActive: false,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('the signing secret', () => {
  it('is shown to admins and rotates, the old one still signing for 24 hours', async () => {
    const created = await create();
    const first = (await admin.get(`/api/admin/workflows/${created.id}/secret`)).json() as TWorkflowSecret;
    expect(first.secretToken).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(first.previousSecretExpiresAt).toBeNull();
    // The fixed X-Flujo-Token value for n8n's Header Auth: derived from the secret, never the secret.
    expect(first.headerToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.headerToken).toBe(headerTokenFor(first.secretToken));
    expect(first.secretToken).not.toContain(first.headerToken);

    const rotated = await admin.post(`/api/admin/workflows/${created.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const second = rotated.json() as TWorkflowSecret;
    expect(second.secretToken).toMatch(/^whsec_/);
    expect(second.secretToken).not.toBe(first.secretToken);
    expect(second.headerToken).toBe(headerTokenFor(second.secretToken));
    expect(second.headerToken).not.toBe(first.headerToken);
    const graceMs = new Date(second.previousSecretExpiresAt ?? 0).getTime() - t.clock.now().getTime();
    expect(graceMs).toBeGreaterThan(23 * 3600_000);
    expect(graceMs).toBeLessThanOrEqual(24 * 3600_000);

    const [row] = await db().select().from(userWorkflows).where(eq(userWorkflows.id, created.id));
    expect(row).toMatchObject({ secretToken: second.secretToken, previousSecretToken: first.secretToken });
    expect((await admin.get(`/api/admin/workflows/${created.id}/secret`)).json()).toEqual(second);

    // A day later the old secret no longer counts.
    t.clock.advance(24 * 3600_000 + 1000);
    try {
      const later = (await admin.get(`/api/admin/workflows/${created.id}/secret`)).json() as TWorkflowSecret;
      expect(later).toEqual({
        secretToken: second.secretToken,
        previousSecretExpiresAt: null,
        headerToken: second.headerToken,
      });
    } finally {
      t.clock.reset();
    }

    const audits = await auditRowsFor(t, created.id);
    expect(audits.at(-1)).toMatchObject({ actionType: 'workflow_updated' });
    expect(JSON.stringify(audits.map((a) => a.details))).not.toContain('whsec_');
  });
});

describe('deleting a workflow', () => {
  it('deletes its runs, refunds the unfinished ones and keeps the ledger rows without the workflow', async () => {
    const created = await create({ creditsPerExecution: 2 });
    const { client: user, id: userId } = await signUpUser(t);
    const start = await user.post('/api/executions/start', { workflowId: created.id });
    expect(start.statusCode).toBe(201);
    const { executionId } = start.json() as { executionId: string };
    // Charged as its answers charge it; a run nobody sent is deleted with nothing to give back.
    await db().transaction((tx) => chargeRun(tx, t.deps.metrics, executionId));
    const balance = async () =>
      (await db().select().from(userProfiles).where(eq(userProfiles.id, userId)))[0]?.credits;
    expect(await balance()).toBe(3);

    const res = await admin.delete(`/api/workflows/${created.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, deletedExecutions: 1 });

    expect(await db().select().from(userWorkflows).where(eq(userWorkflows.id, created.id))).toEqual([]);
    expect(
      await db().select().from(workflowExecutions).where(eq(workflowExecutions.id, executionId)),
    ).toEqual([]);
    const ledger = await db()
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.executionId, executionId));
    expect(ledger.map((r) => [r.transactionType, r.amount, r.workflowId]).sort()).toEqual([
      ['refund', 2, null],
      ['usage', -2, null],
    ]);
    expect(await balance()).toBe(5);

    const audits = await auditRowsFor(t, created.id);
    expect(audits.at(-1)).toMatchObject({ actionType: 'workflow_deleted' });
    expect(audits.at(-1)?.details).toMatchObject({ deletedExecutions: 1, refundedRuns: 1 });

    // The user's history shows the row as "workflow deleted" (no name) rather than losing it.
    const mine = await user.get('/api/credits/transactions');
    expect(mine.statusCode).toBe(200);
    expect(JSON.stringify(mine.json())).not.toContain('E-mail writer');

    const again = await admin.delete(`/api/workflows/${created.id}`);
    expect(again.statusCode).toBe(404);
  });

  it('refuses a malformed id with 400', async () => {
    const res = await admin.delete('/api/workflows/not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
