import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import type { TApiKeyCreated } from '#shared/contract/api-keys.js';
import type { TWorkflowInput } from '#shared/contract/workflows.js';
import { creditTransactions, userProfiles, workflowExecutions } from '#server/db/schema.js';
import { signInAdmin, signUpUser, type TestClient } from '#server/test/client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '#server/test/harness.js';
import { startTestS3 } from '#server/providers/storage/testing/s3-server.js';
import { applyLedgerEntry } from '#server/modules/credits/ledger.js';
import type { WorkflowRow } from '#server/modules/workflows/manage.js';
import { addSurveyWorkflow, testAdminId } from '#server/test/test-data.js';
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
  /** Which store keeps result files: DATA_DIR, or a bucket of a real S3-compatible server on loopback. */
  store: StoreKind;
  /** Every stored file of the app, read from the directory or listed from the bucket (not through the app). */
  storedFiles(): Promise<string[]>;
  /** The app's own URL (it listens on a real port, so callbacks travel over HTTP). */
  baseUrl: string;
  close(): Promise<void>;
}

export type StoreKind = 'local' | 's3';
/** The stores a file test runs on. */
export const STORES: StoreKind[] = ['local', 's3'];

/**
 * The app listening on a loopback port, a test workflow service, and a data directory of its own; with
 * store `s3`, also an S3-compatible server whose bucket keeps the result files.
 */
export async function startRunsWorld(
  env: Record<string, string> = {},
  store: StoreKind = 'local',
): Promise<RunsWorld> {
  const port = await freePort();
  // A folder of its own around the data directory, so a test can check that nothing was written beside it
  // (a shared /tmp may hold anything).
  const home = await mkdtemp(join(tmpdir(), 'flujo-runs-'));
  const dataDir = join(home, 'data');
  await mkdir(dataDir);
  const baseUrl = `http://127.0.0.1:${port}`;
  const s3 = store === 's3' ? await startTestS3() : undefined;
  const t = await buildTestApp({
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_WEBHOOKS: 'true',
    ...s3?.env,
    ...env,
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  const service = await startWorkflowService();
  const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
  return {
    t,
    service,
    admin,
    adminId: await testAdminId(t),
    dataDir,
    store,
    storedFiles: async () =>
      s3
        ? (await s3.objectKeys()).map((k) => k.replace(/^results\//, ''))
        : await readdir(join(dataDir, 'results')).catch(() => []),
    baseUrl,
    close: async () => {
      await service.close();
      await t.close();
      await s3?.close();
      await rm(home, { recursive: true, force: true });
    },
  };
}

export async function addWorkflow(
  world: RunsWorld,
  overrides: Partial<TWorkflowInput> = {},
): Promise<WorkflowRow> {
  return addSurveyWorkflow(world.t.database.db, world.adminId, {
    webhookUrl: `${world.service.url}/hook`,
    ...overrides,
  });
}

/**
 * `addWorkflow` as a chat: by default the party planner, whose prompt asks two questions (whose birthday, how
 * many guests); `overrides` win.
 */
export function addChatWorkflow(
  world: RunsWorld,
  overrides: Partial<TWorkflowInput> = {},
): Promise<WorkflowRow> {
  return addWorkflow(world, {
    interactionType: 'chatbot',
    welcomeMessage: { es: '¡Hola! ¿Qué celebramos?', en: 'Hi! What are we celebrating?' },
    aiPrompt: 'Plan a party. Ask: Whose birthday is it? How many guests are coming?',
    surveyQuestions: [],
    ...overrides,
  });
}

/** Grants credits the way an admin adjustment does (through the ledger). */
export async function grantCredits(world: RunsWorld, userId: string, amount: number): Promise<void> {
  await world.t.database.db.transaction(async (tx) => {
    await applyLedgerEntry(
      tx,
      { userId, amount, type: 'admin_adjustment', notes: 'test grant' },
      world.t.deps.metrics,
    );
  });
}

export async function startRun(client: TestClient, workflowId: string): Promise<string> {
  const res = await client.post('/api/executions/start', { workflowId, language: 'es' });
  if (res.statusCode !== 201) throw new Error(`start failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { executionId: string }).executionId;
}

export const ANSWERS = { responses: [{ question: '¿Nombre?', answer: 'Ana' }] };

/**
 * Completes a run (with `answers` as the request's body) whose service answers 202 and waits for the webhook
 * call; the complete request is left waiting for the result, so the caller can post one (over HTTP) and then
 * await `completion`.
 */
export async function completeAsync(
  world: RunsWorld,
  client: TestClient,
  runId: string,
  answers: unknown = ANSWERS,
): Promise<{ call: ReceivedCall; completion: Promise<LightMyRequestResponse> }> {
  world.service.handle(() => ({ status: 202, body: { accepted: true } }));
  const callPromise = world.service.callFor(runId);
  const completion = client.post(`/api/executions/${runId}/complete`, answers);
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

/** A run whose complete call waits for its result, and the token its workflow service was given. */
export interface OpenRun {
  user: Awaited<ReturnType<typeof signUpUser>>;
  runId: string;
  token: string;
  completion: Promise<LightMyRequestResponse>;
}

/** Starts and completes a run of a new user (or `user`) on `workflowId` (else a new workflow). */
export async function openRun(
  world: RunsWorld,
  opts: { workflowId?: string; user?: OpenRun['user'] } = {},
): Promise<OpenRun> {
  const workflowId = opts.workflowId ?? (await addWorkflow(world)).id;
  const user = opts.user ?? (await signUpUser(world.t));
  const runId = await startRun(user.client, workflowId);
  const { call, completion } = await completeAsync(world, user.client, runId);
  return { user, runId, token: call.body.secret_token, completion };
}

/** POSTs `fields` as the run's result with its id and token, `completed` unless `fields` says otherwise. */
export function postRunResult(
  world: RunsWorld,
  run: Pick<OpenRun, 'runId' | 'token'>,
  fields: Record<string, unknown>,
) {
  return postResult(world, {
    execution_id: run.runId,
    secret_token: run.token,
    status: 'completed',
    ...fields,
  });
}

/** POSTs `fields` as the result of the run the webhook `call` was for, with its token (see postRunResult). */
export function answerCall(world: RunsWorld, call: ReceivedCall, fields: Record<string, unknown>) {
  return postRunResult(world, { runId: call.body.execution_id, token: call.body.secret_token }, fields);
}

/** Creates an API key for the signed-in client and returns it whole (the one time it is shown). */
export async function newApiKey(
  client: TestClient,
  body: Record<string, unknown> = { name: 'test' },
): Promise<string> {
  const res = await client.post('/api/account/api-keys', body);
  if (res.statusCode !== 201) throw new Error(`key: ${res.statusCode} ${res.body}`);
  return res.json<TApiKeyCreated>().key;
}

/** A public-API request with a bearer key, as an integration sends it; a body travels as JSON. */
export function apiRequest(
  world: RunsWorld,
  key: string,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return world.t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
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

/** One runs world for a test file, started before its tests; after them the books are checked and it closes. */
export function useRunsWorld(env: Record<string, string> = {}, store: StoreKind = 'local'): RunsWorld {
  const holder = {} as RunsWorld;
  beforeAll(async () => {
    Object.assign(holder, await startRunsWorld(env, store));
  });
  afterAll(async () => {
    if (!holder.t) return;
    expect(await ledgerMismatches(holder.t.database.db)).toEqual([]);
    await holder.close();
  });
  return holder;
}
