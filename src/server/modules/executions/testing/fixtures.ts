import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { TWorkflowInput } from '#shared/contract/workflows.js';
import { ZWorkflowInput } from '#shared/contract/workflows.js';
import { creditTransactions, userProfiles, workflowExecutions } from '#server/db/schema.js';
import { signInAdmin, signUpUser, type TestClient } from '#server/test/client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { applyLedgerEntry } from '#server/modules/credits/ledger.js';
import { createWorkflow, type WorkflowRow } from '#server/modules/workflows/manage.js';
import {
  freePort,
  startWorkflowService,
  type ReceivedCall,
  type WorkflowService,
} from './workflow-service.js';

export interface RunsWorld {
  t: TestApp;
  service: WorkflowService;
  admin: TestClient;
  adminId: string;
  dataDir: string;
  /** The app's own URL (it listens on a real port, so callbacks travel over HTTP). */
  baseUrl: string;
  close(): Promise<void>;
}

/** The app listening on a loopback port, a test workflow service, and a data directory of its own. */
export async function startRunsWorld(env: Record<string, string> = {}): Promise<RunsWorld> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'flujo-runs-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_WEBHOOKS: 'true',
    ...env,
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  const service = await startWorkflowService();
  const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
  const [adminRow] = await t.database.db
    .select({ id: userProfiles.id })
    .from(userProfiles)
    .where(eq(userProfiles.email, TEST_ADMIN.email));
  return {
    t,
    service,
    admin,
    adminId: adminRow!.id,
    dataDir,
    baseUrl,
    close: async () => {
      await service.close();
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function addWorkflow(
  world: RunsWorld,
  overrides: Partial<TWorkflowInput> = {},
): Promise<WorkflowRow> {
  return createWorkflow(
    world.t.database.db,
    ZWorkflowInput.parse({
      userId: world.adminId,
      name: { es: 'Resumen', en: 'Summary' },
      description: { es: 'Resume una conversación', en: 'Summarises a conversation' },
      category: { es: 'Productividad', en: 'Productivity' },
      webhookUrl: `${world.service.url}/hook`,
      isPublic: true,
      interactionType: 'survey',
      surveyQuestions: [{ id: 'q1', question: { es: '¿Nombre?', en: 'Name?' }, type: 'text', options: [] }],
      ...overrides,
    }),
  );
}

/** Grants credits the way an admin adjustment does (through the ledger). */
export async function grantCredits(world: RunsWorld, userId: string, amount: number): Promise<void> {
  await world.t.database.db.transaction(async (tx) => {
    await applyLedgerEntry(tx, { userId, amount, type: 'admin_adjustment', notes: 'test grant' });
  });
}

export async function startRun(client: TestClient, workflowId: string): Promise<string> {
  const res = await client.post('/api/executions/start', { workflowId, language: 'es' });
  if (res.statusCode !== 201) throw new Error(`start failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { executionId: string }).executionId;
}

export const ANSWERS = { responses: [{ question: '¿Nombre?', answer: 'Ana' }] };

/**
 * Completes a run whose service answers 202 and waits for the webhook call; the complete request is left
 * waiting for the result, so the caller can post one (over HTTP) and then await `completion`.
 */
export async function completeAsync(
  world: RunsWorld,
  client: TestClient,
  runId: string,
): Promise<{ call: ReceivedCall; completion: Promise<LightMyRequestResponse> }> {
  world.service.handle(() => ({ status: 202, body: { accepted: true } }));
  const callPromise = world.service.callFor(runId);
  const completion = client.post(`/api/executions/${runId}/complete`, ANSWERS);
  const call = await callPromise;
  return { call, completion };
}

/** POSTs a result to the app over real HTTP, as a workflow service does. */
export async function postResult(world: RunsWorld, body: unknown): Promise<Response> {
  return fetch(`${world.baseUrl}/api/workflow-result`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export async function balanceOf(world: RunsWorld, userId: string): Promise<number> {
  const [row] = await world.t.database.db
    .select({ credits: userProfiles.credits })
    .from(userProfiles)
    .where(eq(userProfiles.id, userId));
  return row!.credits;
}

export async function ledgerRowsOfRun(world: RunsWorld, runId: string, type: 'usage' | 'refund') {
  return world.t.database.db
    .select()
    .from(creditTransactions)
    .where(and(eq(creditTransactions.executionId, runId), eq(creditTransactions.transactionType, type)));
}

export async function runRow(world: RunsWorld, runId: string) {
  const [row] = await world.t.database.db
    .select()
    .from(workflowExecutions)
    .where(eq(workflowExecutions.id, runId));
  return row!;
}

export { signUpUser };
