import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditTransactions, emailOutbox, userProfiles, workflowExecutions } from '../db/schema.js';
import { resultStorageFor } from '../providers/storage/index.js';
import { signInAdmin, signUpUser, TestClient, uniqueEmail } from './client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './harness.js';
import { listRoutes, routeKey } from './routes.js';
import { addSurveyWorkflow, surveyWorkflowInput, testAdminId } from './test-data.js';
import type { TWorkflowInput } from '#shared/contract/workflows.js';

/**
 * The authorization matrix: every route x {anonymous, user, other user, suspended user, admin} with the
 * status each must get. "user" owns the resources named in the request; "other" is a second ordinary user;
 * "suspended" is a user whose account was suspended after signing in. A route the table does not list fails
 * the test, so a new route cannot ship without its row.
 */
type Persona = 'anonymous' | 'suspended' | 'other' | 'user' | 'admin';
// Admin last: it may delete what the others were refused.
const PERSONAS: Persona[] = ['anonymous', 'suspended', 'other', 'user', 'admin'];

interface Fixtures {
  adminId: string;
  userId: string;
  otherId: string;
  bystanderId: string;
  publicWorkflowId: string;
  privateWorkflowId: string;
  chatWorkflowId: string;
  doomedWorkflowIds: string[];
  finishedRunId: string;
  fileRunId: string;
  configEntryId: string;
  configValue: unknown;
  signinAccount: { email: string; password: string };
  emailId: string;
  /** Deleted by the matrix's revoke row. */
  doomedApiKeyId: string;
  userApiKey: string;
  revokedApiKey: string;
  /** The user's review of the public workflow (the user completed a run of it). */
  reviewId: string;
}

interface Call {
  url: string;
  body?: unknown;
}

interface Row {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The route as Fastify knows it (":param"). */
  route: string;
  label?: string;
  call: (f: Fixtures, persona: Persona) => Call;
  expect: Record<Persona, number>;
}

const every = (status: number): Record<Persona, number> => ({
  anonymous: status,
  suspended: status,
  other: status,
  user: status,
  admin: status,
});
/** Signed-in users only; a suspended account's session no longer works. */
const signedIn = (status: number): Record<Persona, number> => ({
  anonymous: 401,
  suspended: 401,
  other: status,
  user: status,
  admin: status,
});
/** Only the owner (and, where stated, an admin) reaches the resource; others are told it does not exist. */
const ownerOnly = (owner: number, admin: number): Record<Persona, number> => ({
  anonymous: 401,
  suspended: 401,
  other: 404,
  user: owner,
  admin,
});
const adminOnly = (status: number): Record<Persona, number> => ({
  anonymous: 401,
  suspended: 401,
  other: 403,
  user: 403,
  admin: status,
});

const MATRIX: Row[] = [
  { method: 'GET', route: '/healthz', call: () => ({ url: '/healthz' }), expect: every(200) },
  { method: 'GET', route: '/readyz', call: () => ({ url: '/readyz' }), expect: every(200) },
  // Only the metrics token opens the metrics: no session, not even an admin's.
  { method: 'GET', route: '/metrics', call: () => ({ url: '/metrics' }), expect: every(401) },
  {
    method: 'POST',
    route: '/api/auth/signup',
    call: () => ({
      url: '/api/auth/signup',
      body: { email: uniqueEmail('matrix'), password: 'matrix-password-1', fullName: 'M' },
    }),
    expect: every(201),
  },
  {
    method: 'POST',
    route: '/api/auth/signin',
    call: (f) => ({ url: '/api/auth/signin', body: f.signinAccount }),
    expect: every(200),
  },
  { method: 'GET', route: '/api/auth/me', call: () => ({ url: '/api/auth/me' }), expect: signedIn(200) },
  {
    method: 'POST',
    route: '/api/auth/password-reset/request',
    call: () => ({ url: '/api/auth/password-reset/request', body: { email: uniqueEmail('matrix-reset') } }),
    expect: every(202),
  },
  {
    method: 'POST',
    route: '/api/auth/password-reset/confirm',
    label: 'an unknown link',
    call: () => ({
      url: '/api/auth/password-reset/confirm',
      body: { token: 'x'.repeat(43), password: 'matrix-password-3' },
    }),
    expect: every(400),
  },
  {
    method: 'POST',
    route: '/api/auth/verify-email',
    label: 'an unknown link',
    call: () => ({ url: '/api/auth/verify-email', body: { token: 'x'.repeat(43) } }),
    expect: every(400),
  },
  {
    method: 'POST',
    route: '/api/auth/verify-email/resend',
    label: 'users are unverified, the admin is verified',
    call: () => ({ url: '/api/auth/verify-email/resend' }),
    expect: { ...signedIn(202), admin: 409 },
  },
  {
    method: 'PATCH',
    route: '/api/account/profile',
    call: () => ({ url: '/api/account/profile', body: { language: 'en' } }),
    expect: signedIn(200),
  },
  {
    method: 'POST',
    route: '/api/account/password',
    label: 'a wrong current password',
    call: () => ({
      url: '/api/account/password',
      body: { currentPassword: 'not-the-password', newPassword: 'matrix-password-2' },
    }),
    expect: signedIn(400),
  },
  {
    method: 'POST',
    route: '/api/account/email',
    label: 'a wrong password',
    call: () => ({
      url: '/api/account/email',
      body: { newEmail: uniqueEmail('matrix-move'), password: 'not-the-password' },
    }),
    expect: signedIn(400),
  },
  {
    method: 'GET',
    route: '/api/account/export',
    call: () => ({ url: '/api/account/export' }),
    expect: signedIn(200),
  },
  {
    method: 'POST',
    route: '/api/account/sessions/revoke-others',
    call: () => ({ url: '/api/account/sessions/revoke-others' }),
    expect: signedIn(200),
  },
  {
    method: 'POST',
    route: '/api/account/delete',
    label: 'a wrong password',
    call: () => ({ url: '/api/account/delete', body: { password: 'not-the-password' } }),
    expect: signedIn(400),
  },
  {
    method: 'GET',
    route: '/api/workflows/public',
    call: () => ({ url: '/api/workflows/public' }),
    expect: every(200),
  },
  {
    method: 'GET',
    route: '/api/workflows/public/:id',
    label: 'a public workflow',
    call: (f) => ({ url: `/api/workflows/public/${f.publicWorkflowId}` }),
    expect: every(200),
  },
  {
    method: 'GET',
    route: '/api/workflows/public/:id',
    label: 'a private workflow',
    call: (f) => ({ url: `/api/workflows/public/${f.privateWorkflowId}` }),
    expect: { ...every(404), admin: 200 },
  },
  {
    method: 'POST',
    route: '/api/executions/start',
    label: 'a public workflow',
    call: (f) => ({ url: '/api/executions/start', body: { workflowId: f.publicWorkflowId } }),
    expect: signedIn(201),
  },
  {
    method: 'POST',
    route: '/api/executions/start',
    label: 'a private workflow',
    call: (f) => ({ url: '/api/executions/start', body: { workflowId: f.privateWorkflowId } }),
    expect: { ...signedIn(404), admin: 201 },
  },
  {
    method: 'POST',
    route: '/api/executions/:id/complete',
    label: "the user's finished run",
    call: (f) => ({
      url: `/api/executions/${f.finishedRunId}/complete`,
      body: { responses: [{ question: 'q', answer: 'a' }] },
    }),
    expect: ownerOnly(409, 404),
  },
  // Files as survey answers: uploads and removals only for the owner of a pending run (this one has ended:
  // its owner gets 409, everyone else the 404 of a run they cannot see); the signed link needs its signature.
  {
    method: 'POST',
    route: '/api/executions/:id/files',
    label: 'an ended run',
    call: (f) => ({ url: `/api/executions/${f.finishedRunId}/files` }),
    expect: ownerOnly(409, 404),
  },
  {
    method: 'DELETE',
    route: '/api/executions/:id/files/:fileId',
    label: 'an ended run',
    call: (f) => ({ url: `/api/executions/${f.finishedRunId}/files/${f.finishedRunId}` }),
    expect: ownerOnly(409, 404),
  },
  {
    method: 'GET',
    route: '/api/executions/:id/files/:fileId',
    label: 'a forged link',
    call: (f) => ({
      url: `/api/executions/${f.finishedRunId}/files/${f.finishedRunId}?expires=9999999999&signature=${'A'.repeat(43)}`,
    }),
    expect: every(403),
  },
  {
    method: 'GET',
    route: '/api/executions',
    call: () => ({ url: '/api/executions' }),
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/api/executions/',
    call: () => ({ url: '/api/executions/' }),
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/api/executions/:id',
    label: "the user's run",
    call: (f) => ({ url: `/api/executions/${f.finishedRunId}` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'GET',
    route: '/api/executions/:id/events',
    label: "the user's finished run",
    call: (f) => ({ url: `/api/executions/${f.finishedRunId}/events` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'POST',
    route: '/api/chat',
    label: 'with no open run',
    call: (f) => ({
      url: '/api/chat',
      body: { workflowId: f.chatWorkflowId, messages: [{ role: 'user', content: 'hola' }], language: 'es' },
    }),
    expect: signedIn(409),
  },
  {
    method: 'GET',
    route: '/api/credits/transactions',
    call: () => ({ url: '/api/credits/transactions' }),
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/api/credits/plans',
    call: () => ({ url: '/api/credits/plans' }),
    expect: signedIn(200),
  },
  {
    method: 'POST',
    route: '/api/credits/purchase',
    call: () => ({
      url: '/api/credits/purchase',
      body: { type: 'unique', planName: 'Starter', credits: 10, usdAmount: 5 },
    }),
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/api/credits/subscription',
    call: () => ({ url: '/api/credits/subscription' }),
    expect: signedIn(200),
  },
  {
    method: 'POST',
    route: '/api/credits/subscription/cancel',
    label: 'with no plan',
    call: () => ({ url: '/api/credits/subscription/cancel' }),
    expect: signedIn(404),
  },
  {
    method: 'POST',
    route: '/api/payments/stripe/webhook',
    label: 'Stripe not configured',
    call: () => ({ url: '/api/payments/stripe/webhook', body: {} }),
    expect: every(503),
  },
  {
    method: 'POST',
    route: '/api/workflow-result',
    label: 'a wrong token (sessions do not count)',
    call: (f) => ({
      url: '/api/workflow-result',
      body: {
        execution_id: f.finishedRunId,
        secret_token: 'x'.repeat(43),
        status: 'completed',
        output_type: 'text',
        output_data: 'hi',
      },
    }),
    expect: every(401),
  },
  {
    method: 'GET',
    route: '/result/:executionId',
    label: "the user's file",
    call: (f) => ({ url: `/result/${f.fileRunId}` }),
    expect: ownerOnly(200, 200),
  },
  {
    method: 'GET',
    route: '/api/admin/stats',
    call: () => ({ url: '/api/admin/stats' }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/users',
    call: () => ({ url: '/api/admin/users' }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/users/adjust-credits',
    call: (f) => ({
      url: '/api/admin/users/adjust-credits',
      body: { userId: f.bystanderId, amount: 1, reason: 'matrix' },
    }),
    expect: adminOnly(200),
  },
  {
    method: 'PATCH',
    route: '/api/admin/users/:id',
    call: (f) => ({ url: `/api/admin/users/${f.bystanderId}`, body: { accountStatus: 'active' } }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/users/:id/password-reset',
    call: (f) => ({ url: `/api/admin/users/${f.bystanderId}/password-reset` }),
    expect: adminOnly(202),
  },
  {
    method: 'GET',
    route: '/api/admin/emails',
    call: () => ({ url: '/api/admin/emails' }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/emails/:id',
    call: (f) => ({ url: `/api/admin/emails/${f.emailId}` }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/emails/:id/retry',
    label: 'a held mail, no SMTP server',
    call: (f) => ({ url: `/api/admin/emails/${f.emailId}/retry` }),
    expect: adminOnly(409),
  },
  {
    method: 'GET',
    route: '/api/admin/workflows',
    call: () => ({ url: '/api/admin/workflows' }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/workflows',
    call: (f) => ({
      url: '/api/admin/workflows',
      body: surveyWorkflowInput(f.adminId, { name: { es: 'Matrix-created', en: 'Matrix-created' } }),
    }),
    expect: adminOnly(201),
  },
  {
    method: 'GET',
    route: '/api/admin/workflows/:id',
    call: (f) => ({ url: `/api/admin/workflows/${f.publicWorkflowId}` }),
    expect: adminOnly(200),
  },
  {
    method: 'PATCH',
    route: '/api/admin/workflows/:id',
    call: (f) => ({ url: `/api/admin/workflows/${f.publicWorkflowId}`, body: { creditsPerExecution: 1 } }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/workflows/:id/secret',
    call: (f) => ({ url: `/api/admin/workflows/${f.publicWorkflowId}/secret` }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/workflows/:id/rotate-secret',
    call: (f) => ({ url: `/api/admin/workflows/${f.publicWorkflowId}/rotate-secret` }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/executions',
    call: () => ({ url: '/api/admin/executions' }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/credits',
    call: () => ({ url: '/api/admin/credits' }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/config',
    call: () => ({ url: '/api/admin/config' }),
    expect: adminOnly(200),
  },
  {
    method: 'PATCH',
    route: '/api/admin/config/:id',
    call: (f) => ({ url: `/api/admin/config/${f.configEntryId}`, body: { value: f.configValue } }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/audit',
    call: () => ({ url: '/api/admin/audit' }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/translate',
    label: 'no LLM configured',
    call: () => ({ url: '/api/admin/translate', body: { text: 'Hola', targetLanguage: 'en' } }),
    expect: adminOnly(503),
  },
  {
    method: 'DELETE',
    route: '/api/workflows/:id',
    call: (f, persona) => ({ url: `/api/workflows/${f.doomedWorkflowIds[PERSONAS.indexOf(persona)]}` }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/workflows/:id/reviews',
    call: (f) => ({ url: `/api/workflows/${f.publicWorkflowId}/reviews` }),
    expect: signedIn(200),
  },
  {
    method: 'PUT',
    route: '/api/workflows/:id/reviews/mine',
    label: 'only the user completed a run of it',
    call: (f) => ({ url: `/api/workflows/${f.publicWorkflowId}/reviews/mine`, body: { rating: 5 } }),
    expect: { ...signedIn(403), user: 200 },
  },
  {
    method: 'GET',
    route: '/api/admin/workflows/:id/reviews',
    call: (f) => ({ url: `/api/admin/workflows/${f.publicWorkflowId}/reviews` }),
    expect: adminOnly(200),
  },
  {
    method: 'PATCH',
    route: '/api/admin/reviews/:id',
    call: (f) => ({ url: `/api/admin/reviews/${f.reviewId}`, body: { hidden: true } }),
    expect: adminOnly(200),
  },
  {
    method: 'DELETE',
    route: '/api/workflows/:id/reviews/mine',
    label: 'only the user has a review',
    call: (f) => ({ url: `/api/workflows/${f.publicWorkflowId}/reviews/mine` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'POST',
    route: '/api/account/api-keys',
    call: () => ({ url: '/api/account/api-keys', body: { name: 'matrix' } }),
    expect: signedIn(201),
  },
  {
    method: 'GET',
    route: '/api/account/api-keys',
    call: () => ({ url: '/api/account/api-keys' }),
    expect: signedIn(200),
  },
  {
    method: 'DELETE',
    route: '/api/account/api-keys/:id',
    call: (f) => ({ url: `/api/account/api-keys/${f.doomedApiKeyId}` }),
    expect: ownerOnly(200, 404),
  },
  // The public API reads no cookie: every session is refused there (the keys' own table is below).
  { method: 'GET', route: '/api/v1/me', call: () => ({ url: '/api/v1/me' }), expect: every(401) },
  {
    method: 'GET',
    route: '/api/v1/workflows',
    call: () => ({ url: '/api/v1/workflows' }),
    expect: every(401),
  },
  {
    method: 'GET',
    route: '/api/v1/workflows/:id',
    call: (f) => ({ url: `/api/v1/workflows/${f.publicWorkflowId}` }),
    expect: every(401),
  },
  {
    method: 'POST',
    route: '/api/v1/runs',
    call: (f) => ({ url: '/api/v1/runs', body: { workflowId: f.publicWorkflowId, answers: { q1: 'x' } } }),
    expect: every(401),
  },
  {
    method: 'GET',
    route: '/api/v1/runs/:id',
    call: (f) => ({ url: `/api/v1/runs/${f.finishedRunId}` }),
    expect: every(401),
  },
  {
    method: 'POST',
    route: '/api/v1/runs/:id/messages',
    call: (f) => ({ url: `/api/v1/runs/${f.finishedRunId}/messages`, body: { content: 'hi' } }),
    expect: every(401),
  },
  {
    method: 'GET',
    route: '/api/v1/runs/:id/events',
    call: (f) => ({ url: `/api/v1/runs/${f.finishedRunId}/events` }),
    expect: every(401),
  },
  {
    method: 'GET',
    route: '/api/v1/runs/:id/result',
    call: (f) => ({ url: `/api/v1/runs/${f.fileRunId}/result` }),
    expect: every(401),
  },
  // MCP reads no cookie either; its POSTs are stateless, so there is no session to DELETE.
  {
    method: 'POST',
    route: '/mcp',
    call: () => ({ url: '/mcp', body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }),
    expect: every(401),
  },
  { method: 'GET', route: '/mcp', call: () => ({ url: '/mcp' }), expect: every(401) },
  { method: 'DELETE', route: '/mcp', call: () => ({ url: '/mcp' }), expect: every(405) },
  // Last: it ends the persona's session.
  {
    method: 'POST',
    route: '/api/auth/signout',
    call: () => ({ url: '/api/auth/signout' }),
    expect: every(200),
  },
];

let t: TestApp;
let dataDir: string;
let fixtures: Fixtures;
const clients = new Map<Persona, TestClient>();

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'flujo-matrix-'));
  t = await buildTestApp({ DATA_DIR: dataDir, METRICS_TOKEN: 'matrix-metrics-token-0123456789abcdef' });
  const { db } = t.database;
  const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
  const adminId = await testAdminId(t);
  const user = await signUpUser(t);
  const other = await signUpUser(t);
  const suspended = await signUpUser(t);
  const bystander = await signUpUser(t);
  const signinAccount = await signUpUser(t);
  const wf = (name: string, overrides: Partial<TWorkflowInput> = {}) =>
    addSurveyWorkflow(db, adminId, { name: { es: name, en: name }, ...overrides });
  const publicWf = await wf('Public');
  const privateWf = await wf('Private', { isPublic: false });
  const chatWf = await wf('Chat', {
    interactionType: 'chatbot',
    surveyQuestions: [],
    aiPrompt: 'Ask for a name.',
    welcomeMessage: { es: 'Hola', en: 'Hi' },
  });
  const doomed = await Promise.all(PERSONAS.map((p) => wf(`Doomed ${p}`)));

  // Two runs of the user, settled directly: one finished, one finished with a stored file.
  const started = async () => {
    const res = await user.client.post('/api/executions/start', { workflowId: publicWf.id });
    if (res.statusCode !== 201) throw new Error(`start: ${res.statusCode} ${res.body}`);
    return (res.json() as { executionId: string }).executionId;
  };
  const finishedRunId = await started();
  const fileRunId = await started();
  const key = await resultStorageFor(t.config).save(Buffer.from('a,b\n1,2\n'), 'csv');
  await db
    .update(workflowExecutions)
    .set({ status: 'completed', outputType: 'text', outputData: 'done' })
    .where(eq(workflowExecutions.id, finishedRunId));
  await db
    .update(workflowExecutions)
    .set({ status: 'completed', outputType: 'file', outputFilename: 'table.csv', resultPath: key })
    .where(eq(workflowExecutions.id, fileRunId));

  const config = (await admin.get('/api/admin/config')).json() as Array<{
    id: string;
    key: string;
    value: unknown;
  }>;
  const entry = config.find((c) => c.key === 'chat_max_messages')!;

  const review = await user.client.request('PUT', `/api/workflows/${publicWf.id}/reviews/mine`, {
    rating: 4,
  });
  if (review.statusCode !== 200) throw new Error(`review: ${review.statusCode} ${review.body}`);

  await db.update(userProfiles).set({ accountStatus: 'suspended' }).where(eq(userProfiles.id, suspended.id));
  const newKey = async () =>
    (await user.client.post('/api/account/api-keys', { name: 'matrix' })).json() as {
      id: string;
      key: string;
    };
  const userKey = await newKey();
  const doomedKey = await newKey();
  const revokedKey = await newKey();
  await user.client.delete(`/api/account/api-keys/${revokedKey.id}`);
  clients.set('anonymous', new TestClient(t));
  clients.set('suspended', suspended.client);
  clients.set('other', other.client);
  clients.set('user', user.client);
  clients.set('admin', admin);
  fixtures = {
    adminId,
    userId: user.id,
    otherId: other.id,
    bystanderId: bystander.id,
    publicWorkflowId: publicWf.id,
    privateWorkflowId: privateWf.id,
    chatWorkflowId: chatWf.id,
    doomedWorkflowIds: doomed.map((d) => d.id),
    finishedRunId,
    fileRunId,
    configEntryId: entry.id,
    configValue: entry.value,
    signinAccount: { email: signinAccount.email, password: signinAccount.password },
    emailId: (await db.select({ id: emailOutbox.id }).from(emailOutbox).limit(1))[0]!.id,
    doomedApiKeyId: doomedKey.id,
    userApiKey: userKey.key,
    revokedApiKey: revokedKey.key,
    reviewId: (review.json() as { review: { id: string } }).review.id,
  };
}, 180_000);
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('authorization matrix', () => {
  it('lists every route the app serves', async () => {
    const listed = new Set(MATRIX.map((r) => routeKey(r.method, r.route)));
    const served = listRoutes(t.app).map((r) => routeKey(r.method, r.url));
    expect(served.filter((k) => !listed.has(k))).toEqual([]);
    expect([...listed].filter((k) => !served.includes(k))).toEqual([]);
  });

  it('answers every cell with the status the table gives', async () => {
    const wrong: string[] = [];
    let cells = 0;
    for (const row of MATRIX) {
      for (const persona of PERSONAS) {
        const { url, body } = row.call(fixtures, persona);
        const client = clients.get(persona)!;
        // Signing up or in replaces a client's cookie: keep the persona's own session.
        const cookie = client.cookie;
        const res = await client.request(row.method, url, body);
        client.cookie = cookie;
        cells += 1;
        if (res.statusCode !== row.expect[persona]) {
          wrong.push(
            `${row.method} ${row.route}${row.label ? ` (${row.label})` : ''} as ${persona}: ` +
              `${res.statusCode}, expected ${row.expect[persona]} ${res.body.slice(0, 160)}`,
          );
        }
        if (res.statusCode >= 400) {
          expect(res.json(), `${row.method} ${url} as ${persona}`).toEqual(
            expect.objectContaining({ error: expect.any(String), code: expect.any(String) }),
          );
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(cells).toBe(MATRIX.length * PERSONAS.length);
    console.log(`authorization matrix: ${cells} cells checked over ${MATRIX.length} rows`);
  });
});

/**
 * The two key identities: the user's live API key and a revoked one, sent as `Authorization: Bearer` with no
 * cookie. A key opens the public API only; it opens no cookie route.
 */
const KEY_MATRIX: Array<{
  method: Row['method'];
  url: (f: Fixtures) => string;
  body?: (f: Fixtures) => unknown;
  headers?: Record<string, string>;
  key: number;
  revoked: number;
}> = [
  { method: 'GET', url: () => '/api/v1/me', key: 200, revoked: 401 },
  {
    method: 'POST',
    url: () => '/mcp',
    body: () => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'matrix', version: '1' },
      },
    }),
    headers: { accept: 'application/json, text/event-stream' },
    key: 200,
    revoked: 401,
  },
  { method: 'GET', url: () => '/api/v1/workflows', key: 200, revoked: 401 },
  { method: 'GET', url: (f) => `/api/v1/workflows/${f.publicWorkflowId}`, key: 200, revoked: 401 },
  // An API key is not the metrics token.
  { method: 'GET', url: () => '/metrics', key: 401, revoked: 401 },
  // Missing answers: the key is accepted and the body refused, so nothing is charged or dispatched.
  {
    method: 'POST',
    url: () => '/api/v1/runs',
    body: (f) => ({ workflowId: f.publicWorkflowId }),
    key: 400,
    revoked: 401,
  },
  { method: 'GET', url: (f) => `/api/v1/runs/${f.finishedRunId}`, key: 200, revoked: 401 },
  { method: 'GET', url: (f) => `/api/v1/runs/${f.finishedRunId}/events`, key: 200, revoked: 401 },
  // The key's own run, but a finished survey: no conversation to add to, so no model is called.
  {
    method: 'POST',
    url: (f) => `/api/v1/runs/${f.finishedRunId}/messages`,
    body: () => ({ content: 'hi' }),
    key: 409,
    revoked: 401,
  },
  { method: 'GET', url: (f) => `/api/v1/runs/${f.fileRunId}/result`, key: 200, revoked: 401 },
  // The standalone stream: the key passes and the transport then wants Accept: text/event-stream (an open
  // stream never ends, so the matrix does not open one; mcp.test.ts does).
  { method: 'GET', url: () => '/mcp', headers: { accept: 'application/json' }, key: 406, revoked: 401 },
  { method: 'DELETE', url: () => '/mcp', key: 405, revoked: 405 },
  // A script sends no Origin: the cookie routes' CSRF check refuses it before any credential is read.
  { method: 'POST', url: () => '/api/account/api-keys', body: () => ({ name: 'x' }), key: 403, revoked: 403 },
  { method: 'GET', url: () => '/api/account/api-keys', key: 401, revoked: 401 },
  { method: 'DELETE', url: (f) => `/api/account/api-keys/${f.doomedApiKeyId}`, key: 403, revoked: 403 },
  { method: 'GET', url: () => '/api/auth/me', key: 401, revoked: 401 },
  { method: 'GET', url: () => '/api/executions', key: 401, revoked: 401 },
  { method: 'GET', url: () => '/api/admin/stats', key: 401, revoked: 401 },
];

describe('authorization matrix for API keys', () => {
  it('has a row for every route of the public API, the MCP server and the key management', () => {
    const patterns = listRoutes(t.app)
      .filter((r) => /^\/(api\/v1\/|mcp$|api\/account\/api-keys)/.test(r.url))
      .map((r) => ({
        key: routeKey(r.method, r.url),
        re: new RegExp(`^${r.url.replace(/:\w+/g, '[^/]+')}$`),
      }));
    const covered = (p: (typeof patterns)[number]) =>
      KEY_MATRIX.some((row) => p.key.startsWith(`${row.method} `) && p.re.test(row.url(fixtures)));
    expect(patterns.length).toBeGreaterThan(10);
    expect(patterns.filter((p) => !covered(p)).map((p) => p.key)).toEqual([]);
  });

  it('answers every cell with the status the table gives', async () => {
    const wrong: string[] = [];
    for (const row of KEY_MATRIX) {
      for (const [who, key, status] of [
        ['API key', fixtures.userApiKey, row.key],
        ['revoked key', fixtures.revokedApiKey, row.revoked],
      ] as const) {
        const url = row.url(fixtures);
        const body = row.body?.(fixtures);
        const res = await t.app.inject({
          method: row.method,
          url,
          headers: {
            authorization: `Bearer ${key}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...row.headers,
          },
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
        });
        if (res.statusCode !== status)
          wrong.push(`${row.method} ${url} as ${who}: ${res.statusCode}, expected ${status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('fields a user does not own', () => {
  it('no endpoint lets a user set their credits, admin flag or account status', async () => {
    const mallory = await signUpUser(t, {});
    const extra = {
      credits: 1_000_000,
      isAdmin: true,
      is_admin: true,
      accountStatus: 'active',
      role: 'admin',
    };
    // Every state-changing route a signed-in non-admin may call, with the forbidden fields added.
    const calls: Array<[Row['method'], string, Record<string, unknown>]> = [
      ['POST', '/api/executions/start', { workflowId: fixtures.publicWorkflowId }],
      ['POST', '/api/credits/purchase', { type: 'unique', planName: 'Starter', credits: 10, usdAmount: 5 }],
      ['POST', '/api/credits/subscription/cancel', {}],
      ['PATCH', '/api/account/profile', { fullName: 'Mallory' }],
      ['POST', '/api/chat', { workflowId: fixtures.chatWorkflowId, messages: [], language: 'es' }],
      ['PATCH', `/api/admin/users/${mallory.id}`, { isAdmin: true }],
      ['POST', '/api/admin/users/adjust-credits', { userId: mallory.id, amount: 1000, reason: 'me' }],
    ];
    for (const [method, url, body] of calls) {
      const res = await mallory.client.request(method, url, {
        ...body,
        ...extra,
        userId: body.userId ?? mallory.id,
      });
      expect(res.statusCode, `${method} ${url}`).toBeLessThan(500);
    }
    const [profile] = await t.database.db.select().from(userProfiles).where(eq(userProfiles.id, mallory.id));
    expect(profile).toMatchObject({ isAdmin: false, accountStatus: 'active' });
    const grants = await t.database.db
      .select()
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, mallory.id));
    // The sign-up bonus, one run's charge and one demo purchase: nothing the caller named.
    expect(grants.filter((g) => g.transactionType === 'admin_adjustment')).toEqual([]);
    expect(profile!.credits).toBeLessThan(100);

    // Sign-up ignores them too.
    const res = await new TestClient(t).post('/api/auth/signup', {
      email: uniqueEmail('mallory'),
      password: 'mallory-password-1',
      fullName: 'M',
      ...extra,
      accountStatus: 'suspended',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      credits: 5,
      isAdmin: false,
      is_admin: false,
      account_status: 'active',
    });
  });
});
