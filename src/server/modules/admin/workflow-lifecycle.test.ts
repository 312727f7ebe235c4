import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TAdminStats, TAdminWorkflow, TAdminWorkflowDetail } from '#shared/contract/admin.js';
import type { TExecutionDetail } from '#shared/contract/executions.js';
import type { TWorkflowVersion, TWorkflowVersionSummary } from '#shared/contract/workflow-versions.js';
import {
  adminAuditLogs,
  creditTransactions,
  userWorkflows,
  workflowExecutions,
  workflowReviews,
  workflowVersions,
} from '#server/db/schema.js';
import { chargeRun } from '../credits/service.js';
import { tallyRuns } from '../executions/service.js';
import {
  addWorkflow,
  ANSWERS,
  answerCall,
  balanceOf,
  completeAsync,
  grantCredits,
  openRun,
  postRunResult,
  runRow,
  signUpUser,
  startRun,
  useRunsWorld,
  type RunsWorld,
} from '../executions/testing/fixtures.js';
import { auditRowsFor } from './testing/test-data.js';

// Test runs, versions and archiving (issue 26, sections 4-6; decisions 147-149), through the HTTP API on a
// real database, with a real workflow service on loopback.
const w: RunsWorld = useRunsWorld();
const db = () => w.t.database.db;
const es = { 'accept-language': 'es' };

const QUESTION_1 = {
  id: 'q1',
  question: { es: '¿Nombre?', en: 'Name?' },
  type: 'text' as const,
  options: [],
};
const QUESTION_2 = {
  id: 'q2',
  question: { es: '¿Empresa?', en: 'Company?' },
  type: 'text' as const,
  options: [],
};

async function auditActions(targetId: string): Promise<string[]> {
  return (await auditRowsFor(w.t, targetId)).map((r) => r.actionType);
}

async function ledgerRowsOf(runId: string) {
  return db().select().from(creditTransactions).where(eq(creditTransactions.executionId, runId));
}

async function catalogueIds(client = w.admin): Promise<string[]> {
  return ((await client.get('/api/workflows/public')).json() as Array<{ id: string }>).map((x) => x.id);
}

async function versionsOf(id: string): Promise<TWorkflowVersionSummary[]> {
  const res = await w.admin.get(`/api/admin/workflows/${id}/versions`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('test runs', () => {
  it('run a private, inactive, archived workflow on its real webhook, charge no one and count nowhere', async () => {
    const wf = await addWorkflow(w, { isPublic: false, creditsPerExecution: 7 });
    expect((await w.admin.patch(`/api/admin/workflows/${wf.id}`, { isActive: false })).statusCode).toBe(200);
    expect((await w.admin.post(`/api/admin/workflows/${wf.id}/archive`)).statusCode).toBe(200);
    const balanceBefore = await balanceOf(w, w.adminId);
    const statsBefore = (await w.admin.get('/api/admin/stats')).json() as TAdminStats;

    // The test screen reads the workflow whatever its state; the catalogue's own detail does not show it.
    const screen = await w.admin.get(`/api/admin/workflows/${wf.id}/test-run`);
    expect(screen.statusCode).toBe(200);
    expect(screen.json()).toMatchObject({ id: wf.id, surveyQuestions: [{ id: 'q1' }] });
    expect((await w.admin.get(`/api/workflows/public/${wf.id}`)).statusCode).toBe(404);

    const opened = await w.admin.post(`/api/admin/workflows/${wf.id}/test-runs`, { language: 'es' });
    expect(opened.statusCode).toBe(201);
    const runId = (opened.json() as { executionId: string }).executionId;
    // The run is answered and followed through the ordinary run routes, like any run of the admin.
    const { call, completion } = await completeAsync(w, w.admin, runId);
    expect(call.body.responses).toEqual([{ question: '¿Nombre?', answer: 'Ana' }]);
    expect((await answerCall(w, call, { output_data: { text: 'hola' } })).status).toBe(200);
    expect((await completion).json()).toMatchObject({ status: 'completed', origin: 'test', creditsUsed: 0 });

    expect(await runRow(w, runId)).toMatchObject({ origin: 'test', creditsUsed: 0, workflowVersion: 1 });
    expect(await ledgerRowsOf(runId)).toEqual([]);
    expect(await balanceOf(w, w.adminId)).toBe(balanceBefore);
    // Counted nowhere: not in the run counter (the catalogue's and the dashboard's total), the dashboard's
    // recent runs or its daily series.
    await tallyRuns(db());
    const [row] = await db().select().from(userWorkflows).where(eq(userWorkflows.id, wf.id));
    expect(row?.executionCount).toBe(0);
    const stats = (await w.admin.get('/api/admin/stats')).json() as TAdminStats;
    expect(stats.totals.executions).toBe(statsBefore.totals.executions);
    expect(stats.recentActivity.map((r) => r.id)).not.toContain(runId);
    expect(stats.runsPerDay).toEqual(statsBefore.runsPerDay);
  });

  it('is never charged, even when its charge is asked for (a chat at its first message)', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 3 });
    const runId = (
      (await w.admin.post(`/api/admin/workflows/${wf.id}/test-runs`, {})).json() as { executionId: string }
    ).executionId;
    const charged = await db().transaction((tx) => chargeRun(tx, w.t.deps.metrics, runId));
    expect(charged).toBe(0);
    expect(await ledgerRowsOf(runId)).toEqual([]);
  });

  it("keeps apart from the admin's real runs: opening the execute page never continues a test run", async () => {
    const wf = await addWorkflow(w);
    const test = (
      (await w.admin.post(`/api/admin/workflows/${wf.id}/test-runs`, {})).json() as { executionId: string }
    ).executionId;
    await grantCredits(w, w.adminId, 5);
    const real = await startRun(w.admin, wf.id);
    expect(real).not.toBe(test);
    expect(await runRow(w, real)).toMatchObject({ origin: 'web' });
  });

  it('are for admins only, and a missing workflow or bad body is refused in the reader’s language', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    expect((await user.client.post(`/api/admin/workflows/${wf.id}/test-runs`, {})).statusCode).toBe(403);
    expect((await user.client.get(`/api/admin/workflows/${wf.id}/test-run`)).statusCode).toBe(403);
    const missing = await w.admin.post(
      '/api/admin/workflows/00000000-0000-4000-8000-000000000000/test-runs',
      {},
      es,
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'Workflow no encontrado' });
    const bad = await w.admin.post(`/api/admin/workflows/${wf.id}/test-runs`, { language: 'fr' }, es);
    expect(bad.statusCode).toBe(400);
    const runs = await db()
      .select({ id: workflowExecutions.id })
      .from(workflowExecutions)
      .where(eq(workflowExecutions.workflowId, wf.id));
    expect(runs).toEqual([]);
  });
});

describe('versions', () => {
  it('number each save that changes what a run uses, with its author; owner and visibility alone do not', async () => {
    const wf = await addWorkflow(w);
    expect((await versionsOf(wf.id)).map((v) => v.version)).toEqual([1]);
    // Visibility alone: no new version.
    expect((await w.admin.patch(`/api/admin/workflows/${wf.id}`, { isPublic: false })).statusCode).toBe(200);
    expect((await versionsOf(wf.id)).map((v) => v.version)).toEqual([1]);
    const edited = await w.admin.patch(`/api/admin/workflows/${wf.id}`, {
      surveyQuestions: [QUESTION_1, QUESTION_2],
      creditsPerExecution: 2,
    });
    expect(edited.statusCode).toBe(200);
    expect((edited.json() as TAdminWorkflowDetail).version).toBe(2);
    const history = await versionsOf(wf.id);
    expect(history).toMatchObject([
      { version: 2, current: true, restoredFrom: null, author: { id: w.adminId } },
      { version: 1, current: false },
    ]);
    const v2 = (await w.admin.get(`/api/admin/workflows/${wf.id}/versions/2`)).json() as TWorkflowVersion;
    expect(v2.content.surveyQuestions.map((q) => q.id)).toEqual(['q1', 'q2']);
    expect(v2.content.creditsPerExecution).toBe(2);
    // The secret is never part of a version.
    const stored = await db().select().from(workflowVersions).where(eq(workflowVersions.workflowId, wf.id));
    expect(JSON.stringify(stored)).not.toContain('whsec_');
    expect(JSON.stringify(v2)).not.toContain('whsec_');
  });

  it('are recorded by each run, so an old run still shows the questions it was asked', async () => {
    const wf = await addWorkflow(w);
    const run = await openRun(w, { workflowId: wf.id });
    expect((await postRunResult(w, run, { output_data: { ok: true } })).status).toBe(200);
    await run.completion;
    expect(await runRow(w, run.runId)).toMatchObject({ workflowVersion: 1 });
    const q1Renamed = { ...QUESTION_1, question: { es: '¿Cómo te llamas?', en: 'Your name?' } };
    await w.admin.patch(`/api/admin/workflows/${wf.id}`, { surveyQuestions: [q1Renamed] });
    const detail = (await run.user.client.get(`/api/executions/${run.runId}`)).json() as TExecutionDetail;
    expect(detail.answers).toEqual(ANSWERS.responses);
    const asked = (await w.admin.get(`/api/admin/workflows/${wf.id}/versions/1`)).json() as TWorkflowVersion;
    expect(asked.content.surveyQuestions[0]?.question).toEqual(QUESTION_1.question);
    // A run opened now runs the new version.
    const next = await startRun(run.user.client, wf.id);
    const renamed = { responses: [{ question: '¿Cómo te llamas?', answer: 'Ana' }] };
    const { call, completion } = await completeAsync(w, run.user.client, next, renamed);
    expect(await runRow(w, next)).toMatchObject({ workflowVersion: 2 });
    await answerCall(w, call, { output_data: { ok: true } });
    await completion;
  });

  it('restore an earlier version as a new one, audited; restoring the current one changes nothing', async () => {
    const wf = await addWorkflow(w);
    await w.admin.patch(`/api/admin/workflows/${wf.id}`, {
      name: { es: 'Otro', en: 'Other' },
      surveyQuestions: [QUESTION_2],
    });
    const restored = await w.admin.post(`/api/admin/workflows/${wf.id}/versions/1/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({
      version: 3,
      name: { es: 'Resumen', en: 'Summary' },
      surveyQuestions: [{ id: 'q1' }],
    });
    expect((await versionsOf(wf.id))[0]).toMatchObject({ version: 3, restoredFrom: 1, current: true });
    const [audit] = (await auditRowsFor(w.t, wf.id)).filter(
      (r) => r.actionType === 'workflow_version_restored',
    );
    expect(audit?.details).toMatchObject({ restoredFrom: 1, from: 2, version: 3 });
    // Version 3 is what version 1 was: restoring 1 again is no change.
    const again = await w.admin.post(`/api/admin/workflows/${wf.id}/versions/1/restore`);
    expect(again.json()).toMatchObject({ version: 3 });
    expect((await versionsOf(wf.id)).length).toBe(3);
    expect((await auditActions(wf.id)).filter((a) => a === 'workflow_version_restored')).toHaveLength(1);
  });

  it('refuse an unknown version or workflow and a bad number, in the reader’s language, changing nothing', async () => {
    const wf = await addWorkflow(w);
    const missing = await w.admin.post(`/api/admin/workflows/${wf.id}/versions/9/restore`, undefined, es);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'Versión no encontrada' });
    expect((await w.admin.get(`/api/admin/workflows/${wf.id}/versions/0`)).statusCode).toBe(400);
    expect((await w.admin.get(`/api/admin/workflows/${wf.id}/versions/x`)).statusCode).toBe(400);
    expect(
      (await w.admin.get('/api/admin/workflows/00000000-0000-4000-8000-000000000000/versions')).statusCode,
    ).toBe(404);
    expect((await versionsOf(wf.id)).map((v) => v.version)).toEqual([1]);
    const user = await signUpUser(w.t);
    expect((await user.client.get(`/api/admin/workflows/${wf.id}/versions`)).statusCode).toBe(403);
  });
});

describe('archiving', () => {
  it('takes a workflow out of the catalogue and out of reach, keeps its runs and reviews, and brings it back', async () => {
    const wf = await addWorkflow(w);
    const run = await openRun(w, { workflowId: wf.id });
    await postRunResult(w, run, { output_data: { ok: true } });
    await run.completion;
    expect(
      (await run.user.client.put(`/api/workflows/${wf.id}/reviews/mine`, { rating: 5 })).statusCode,
    ).toBe(200);

    const archived = await w.admin.post(`/api/admin/workflows/${wf.id}/archive`);
    expect(archived.statusCode).toBe(200);
    expect((archived.json() as TAdminWorkflowDetail).archivedAt).not.toBeNull();
    expect(await catalogueIds(run.user.client)).not.toContain(wf.id);
    expect(await catalogueIds()).not.toContain(wf.id);
    // Cannot be started, by anyone, by any path.
    await grantCredits(w, run.user.id, 5);
    const start = await run.user.client.post('/api/executions/start', { workflowId: wf.id }, es);
    expect(start.statusCode).toBe(404);
    expect(start.json()).toMatchObject({ error: 'Workflow no encontrado' });
    expect((await w.admin.post('/api/executions/start', { workflowId: wf.id })).statusCode).toBe(404);
    // Its customer keeps the run, its result, and the review.
    const mine = (await run.user.client.get(`/api/executions/${run.runId}`)).json() as TExecutionDetail;
    expect(mine).toMatchObject({ status: 'completed', workflowId: wf.id });
    const reviews = await db().select().from(workflowReviews).where(eq(workflowReviews.workflowId, wf.id));
    expect(reviews).toHaveLength(1);
    // The admin list shows it under "archived" only.
    const list = async (status: string) =>
      ((await w.admin.get(`/api/admin/workflows?status=${status}&limit=500`)).json() as TAdminWorkflow[]).map(
        (x) => x.id,
      );
    expect(await list('archived')).toContain(wf.id);
    expect(await list('active')).not.toContain(wf.id);

    // Archiving twice records once; bringing it back puts it in the catalogue again.
    await w.admin.post(`/api/admin/workflows/${wf.id}/archive`);
    expect((await w.admin.post(`/api/admin/workflows/${wf.id}/unarchive`)).statusCode).toBe(200);
    expect(await catalogueIds(run.user.client)).toContain(wf.id);
    expect((await run.user.client.post('/api/executions/start', { workflowId: wf.id })).statusCode).toBe(201);
    const actions = await auditActions(wf.id);
    expect(actions.filter((a) => a === 'workflow_archived')).toHaveLength(1);
    expect(actions.filter((a) => a === 'workflow_unarchived')).toHaveLength(1);
  });

  it('is for admins only', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    expect((await user.client.post(`/api/admin/workflows/${wf.id}/archive`)).statusCode).toBe(403);
    const [row] = await db()
      .select({ archivedAt: userWorkflows.archivedAt })
      .from(userWorkflows)
      .where(and(eq(userWorkflows.id, wf.id)));
    expect(row?.archivedAt).toBeNull();
    expect(await db().select().from(adminAuditLogs).where(eq(adminAuditLogs.targetId, wf.id))).toEqual([]);
  });
});
