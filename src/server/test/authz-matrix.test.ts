import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminConfig,
  creditTransactions,
  emailOutbox,
  notifications,
  savedInputs,
  sessions,
  userProfiles,
  workflowExecutions,
} from '../db/schema.js';
import { resultStorageFor } from '../providers/storage/index.js';
import { signInAdmin, signUpUser, TestClient, uniqueEmail } from './client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './harness.js';
import { OPEN_STREAM_ROUTES, requestOpenStream } from './open-stream.js';
import { listRoutes, routeKey } from './routes.js';
import { addSurveyWorkflow, surveyWorkflowInput, testAdminId } from './test-data.js';
import { oauthAccessToken } from '../modules/oauth/testing/oauth-token.js';
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
  /** The user's OAuth access token for the public API (/api/v1), got through consent like an app's. */
  userOAuthToken: string;
  revokedApiKey: string;
  /** The admin's key with the admin scope (/api/v1/admin/), and the workflow its rows change. */
  adminApiKey: string;
  adminKeyWorkflowId: string;
  /** The admin's OAuth access token for the management API (n8n's Flujo OAuth2 credential holds one). */
  adminOAuthToken: string;
  /** The user's review of the public workflow (the user completed a run of it). */
  reviewId: string;
  /** A second session of the user (another device), signed out by the matrix's sign-out-one row. */
  spareSessionId: string;
  /** The user's webhook endpoint, and one of its deliveries (a test event). */
  webhookId: string;
  webhookDeliveryId: string;
  /** Deleted by the matrix's cookie and key rows. */
  doomedWebhookIds: [string, string];
  /** A notification under the user's bell. */
  notificationId: string;
  /** The user's saved answers without a schedule (the create rows schedule them), and the user's schedules. */
  unscheduledInputId: string;
  keyUnscheduledInputId: string;
  scheduleId: string;
  /** Deleted by the matrix's delete rows (cookie, then API key). */
  doomedScheduleId: string;
  doomedKeyScheduleId: string;
  /** The user's saved answers, which no longer fit the workflow (running them is refused, 409). */
  savedInputId: string;
  /** The user's saved answers deleted by the matrix's delete row. */
  doomedSavedInputId: string;
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

/** An id nothing has. */
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';

const MATRIX: Row[] = [
  { method: 'GET', route: '/healthz', call: () => ({ url: '/healthz' }), expect: every(200) },
  { method: 'GET', route: '/readyz', call: () => ({ url: '/readyz' }), expect: every(200) },
  { method: 'GET', route: '/robots.txt', call: () => ({ url: '/robots.txt' }), expect: every(200) },
  { method: 'GET', route: '/sitemap.xml', call: () => ({ url: '/sitemap.xml' }), expect: every(200) },
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
  { method: 'GET', route: '/api/config', call: () => ({ url: '/api/config' }), expect: every(200) },
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
    method: 'GET',
    route: '/api/account/sessions',
    call: () => ({ url: '/api/account/sessions' }),
    expect: signedIn(200),
  },
  {
    method: 'DELETE',
    route: '/api/account/sessions/:id',
    label: 'another device of the user: no one else may end it, admins included',
    call: (f) => ({ url: `/api/account/sessions/${f.spareSessionId}` }),
    expect: { ...ownerOnly(200, 404) },
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
    method: 'GET',
    route: '/api/admin/users/:id/connected-apps',
    call: (f) => ({ url: `/api/admin/users/${f.bystanderId}/connected-apps` }),
    expect: adminOnly(200),
  },
  {
    method: 'DELETE',
    route: '/api/admin/users/:id/connected-apps/:appId',
    call: (f) => ({ url: `/api/admin/users/${f.bystanderId}/connected-apps/${NO_SUCH_ID}` }),
    expect: adminOnly(404),
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
    route: '/api/admin/workflows/:id/versions',
    call: (f) => ({ url: `/api/admin/workflows/${f.publicWorkflowId}/versions` }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/workflows/:id/versions/:version',
    call: (f) => ({ url: `/api/admin/workflows/${f.publicWorkflowId}/versions/1` }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/workflows/:id/versions/:version/restore',
    call: (f) => ({ url: `/api/admin/workflows/${f.publicWorkflowId}/versions/1/restore` }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/workflows/:id/archive',
    call: (f) => ({ url: `/api/admin/workflows/${f.privateWorkflowId}/archive` }),
    expect: adminOnly(200),
  },
  // Right after the archive row, so the private workflow is back for the rows that follow.
  {
    method: 'POST',
    route: '/api/admin/workflows/:id/unarchive',
    call: (f) => ({ url: `/api/admin/workflows/${f.privateWorkflowId}/unarchive` }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/workflows/:id/test-run',
    call: (f) => ({ url: `/api/admin/workflows/${f.privateWorkflowId}/test-run` }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/workflows/:id/test-runs',
    call: (f) => ({ url: `/api/admin/workflows/${f.privateWorkflowId}/test-runs`, body: {} }),
    expect: adminOnly(201),
  },
  {
    method: 'GET',
    route: '/api/admin/executions',
    call: () => ({ url: '/api/admin/executions' }),
    expect: adminOnly(200),
  },
  // Operations (decisions 144-146): a run's delivery log, retry now, health, incidents, pause, alerts.
  {
    method: 'GET',
    route: '/api/admin/executions/:id',
    call: (f) => ({ url: `/api/admin/executions/${f.finishedRunId}` }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/executions/:id/events',
    label: 'any finished run',
    call: (f) => ({ url: `/api/admin/executions/${f.finishedRunId}/events` }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/executions/:id/retry-delivery',
    label: 'an ended run',
    call: (f) => ({ url: `/api/admin/executions/${f.finishedRunId}/retry-delivery` }),
    expect: adminOnly(409),
  },
  {
    method: 'GET',
    route: '/api/admin/workflows/:id/health',
    call: (f) => ({ url: `/api/admin/workflows/${f.publicWorkflowId}/health` }),
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/api/admin/workflows/:id/pause',
    label: 'an unknown workflow (pausing a fixture would stop the other rows)',
    call: () => ({ url: '/api/admin/workflows/00000000-0000-4000-8000-000000000026/pause' }),
    expect: adminOnly(404),
  },
  {
    method: 'POST',
    route: '/api/admin/workflows/:id/resume',
    label: 'an unknown workflow',
    call: () => ({ url: '/api/admin/workflows/00000000-0000-4000-8000-000000000026/resume' }),
    expect: adminOnly(404),
  },
  {
    method: 'GET',
    route: '/api/admin/incidents',
    call: () => ({ url: '/api/admin/incidents' }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/alerts/me',
    call: () => ({ url: '/api/admin/alerts/me' }),
    expect: adminOnly(200),
  },
  {
    method: 'PUT',
    route: '/api/admin/alerts/me',
    call: () => ({ url: '/api/admin/alerts/me', body: { workflowAlerts: true } }),
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
    method: 'GET',
    route: '/api/admin/insights',
    call: () => ({ url: '/api/admin/insights?period=week' }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/exports/runs',
    call: () => ({ url: '/api/admin/exports/runs?from=2026-01-01&to=2026-12-31' }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/api/admin/exports/ledger',
    call: () => ({ url: '/api/admin/exports/ledger?from=2026-01-01&to=2026-12-31' }),
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
  {
    method: 'GET',
    route: '/api/notifications',
    call: () => ({ url: '/api/notifications' }),
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/api/notifications/unread-count',
    call: () => ({ url: '/api/notifications/unread-count' }),
    expect: signedIn(200),
  },
  {
    method: 'POST',
    route: '/api/notifications/:id/read',
    label: "the user's notification",
    call: (f) => ({ url: `/api/notifications/${f.notificationId}/read` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'POST',
    route: '/api/notifications/read-all',
    call: () => ({ url: '/api/notifications/read-all' }),
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/api/notifications/events',
    call: () => ({ url: '/api/notifications/events' }),
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/api/notifications/settings',
    call: () => ({ url: '/api/notifications/settings' }),
    expect: signedIn(200),
  },
  {
    method: 'PUT',
    route: '/api/notifications/settings',
    call: () => ({
      url: '/api/notifications/settings',
      body: {
        preferences: {
          mail: { web: 'all', schedule: 'all', api: 'failures' },
          bell: { web: 'all', schedule: 'all', api: 'all' },
        },
        lowBalanceThreshold: 5,
      },
    }),
    expect: signedIn(200),
  },
  {
    method: 'POST',
    route: '/api/schedules',
    label: "the user's saved answers",
    call: (f) => ({
      url: '/api/schedules',
      body: { savedInputId: f.unscheduledInputId, cron: '0 9 * * *', timezone: 'Europe/Madrid' },
    }),
    expect: ownerOnly(201, 404),
  },
  { method: 'GET', route: '/api/schedules', call: () => ({ url: '/api/schedules' }), expect: signedIn(200) },
  {
    method: 'POST',
    route: '/api/schedules/preview',
    call: () => ({ url: '/api/schedules/preview', body: { cron: '0 9 * * 1-5', timezone: 'UTC' } }),
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/api/schedules/:id',
    call: (f) => ({ url: `/api/schedules/${f.scheduleId}` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'PATCH',
    route: '/api/schedules/:id',
    call: (f) => ({ url: `/api/schedules/${f.scheduleId}`, body: { active: false } }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'DELETE',
    route: '/api/schedules/:id',
    call: (f) => ({ url: `/api/schedules/${f.doomedScheduleId}` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'POST',
    route: '/api/account/webhooks',
    call: () => ({
      url: '/api/account/webhooks',
      body: { url: 'https://example.com/matrix', events: ['run.failed'] },
    }),
    expect: signedIn(201),
  },
  {
    method: 'GET',
    route: '/api/account/webhooks',
    call: () => ({ url: '/api/account/webhooks' }),
    expect: signedIn(200),
  },
  {
    method: 'DELETE',
    route: '/api/account/webhooks/:id',
    call: (f) => ({ url: `/api/account/webhooks/${f.doomedWebhookIds[0]}` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'POST',
    route: '/api/account/webhooks/:id/test',
    call: (f) => ({ url: `/api/account/webhooks/${f.webhookId}/test` }),
    expect: ownerOnly(202, 404),
  },
  {
    method: 'GET',
    route: '/api/account/webhooks/:id/deliveries',
    call: (f) => ({ url: `/api/account/webhooks/${f.webhookId}/deliveries` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'POST',
    route: '/api/account/webhooks/:id/deliveries/:deliveryId/redeliver',
    call: (f) => ({
      url: `/api/account/webhooks/${f.webhookId}/deliveries/${f.webhookDeliveryId}/redeliver`,
    }),
    expect: ownerOnly(202, 404),
  },
  {
    method: 'POST',
    route: '/api/account/webhooks/:id/rotate-secret',
    call: (f) => ({ url: `/api/account/webhooks/${f.webhookId}/rotate-secret` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'POST',
    route: '/api/account/webhooks/:id/enable',
    call: (f) => ({ url: `/api/account/webhooks/${f.webhookId}/enable` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'POST',
    route: '/api/account/webhooks/run-secret',
    call: () => ({ url: '/api/account/webhooks/run-secret' }),
    expect: signedIn(200),
  },
  // The public API's webhooks take a key, never a cookie.
  {
    method: 'POST',
    route: '/api/v1/webhooks',
    call: () => ({
      url: '/api/v1/webhooks',
      body: { url: 'https://example.com/matrix', events: ['run.failed'] },
    }),
    expect: every(401),
  },
  { method: 'GET', route: '/api/v1/webhooks', call: () => ({ url: '/api/v1/webhooks' }), expect: every(401) },
  {
    method: 'DELETE',
    route: '/api/v1/webhooks/:id',
    call: (f) => ({ url: `/api/v1/webhooks/${f.webhookId}` }),
    expect: every(401),
  },
  {
    method: 'POST',
    route: '/api/v1/webhooks/:id/test',
    call: (f) => ({ url: `/api/v1/webhooks/${f.webhookId}/test` }),
    expect: every(401),
  },
  {
    method: 'GET',
    route: '/api/v1/webhooks/:id/deliveries',
    call: (f) => ({ url: `/api/v1/webhooks/${f.webhookId}/deliveries` }),
    expect: every(401),
  },
  {
    method: 'POST',
    route: '/api/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
    call: (f) => ({ url: `/api/v1/webhooks/${f.webhookId}/deliveries/${f.webhookDeliveryId}/redeliver` }),
    expect: every(401),
  },
  {
    method: 'POST',
    route: '/api/v1/webhooks/:id/rotate-secret',
    call: (f) => ({ url: `/api/v1/webhooks/${f.webhookId}/rotate-secret` }),
    expect: every(401),
  },
  {
    method: 'POST',
    route: '/api/v1/webhooks/:id/enable',
    call: (f) => ({ url: `/api/v1/webhooks/${f.webhookId}/enable` }),
    expect: every(401),
  },
  {
    method: 'POST',
    route: '/api/v1/webhooks/run-secret',
    call: () => ({ url: '/api/v1/webhooks/run-secret' }),
    expect: every(401),
  },
  {
    method: 'GET',
    route: '/api/saved-inputs',
    call: () => ({ url: '/api/saved-inputs' }),
    expect: signedIn(200),
  },
  {
    method: 'POST',
    route: '/api/saved-inputs',
    call: (f) => ({
      url: '/api/saved-inputs',
      body: { workflowId: f.publicWorkflowId, name: 'matrix', answers: { q1: 'x' } },
    }),
    expect: signedIn(201),
  },
  {
    method: 'POST',
    route: '/api/saved-inputs/from-run',
    label: "the user's own run",
    call: (f) => ({ url: '/api/saved-inputs/from-run', body: { runId: f.finishedRunId, name: 'from run' } }),
    expect: ownerOnly(201, 404),
  },
  {
    method: 'GET',
    route: '/api/saved-inputs/:id',
    call: (f) => ({ url: `/api/saved-inputs/${f.savedInputId}` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'PATCH',
    route: '/api/saved-inputs/:id',
    call: (f) => ({ url: `/api/saved-inputs/${f.savedInputId}`, body: { name: 'renamed' } }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'POST',
    route: '/api/saved-inputs/:id/run',
    label: 'answers that need review: refused before any charge',
    call: (f) => ({ url: `/api/saved-inputs/${f.savedInputId}/run` }),
    expect: ownerOnly(409, 404),
  },
  {
    method: 'DELETE',
    route: '/api/saved-inputs/:id',
    call: (f) => ({ url: `/api/saved-inputs/${f.doomedSavedInputId}` }),
    expect: ownerOnly(200, 404),
  },
  {
    method: 'PUT',
    route: '/api/saved-inputs/:id/files/:questionId',
    label: 'no multipart body: the owner is told to send the file, anyone else is not told they exist',
    call: (f) => ({ url: `/api/saved-inputs/${f.savedInputId}/files/q1` }),
    expect: ownerOnly(400, 404),
  },
  // The public API reads no cookie: every session is refused there (the keys' own table is below).
  {
    method: 'POST',
    route: '/api/v1/schedules',
    call: (f) => ({
      url: '/api/v1/schedules',
      body: { savedInputId: f.unscheduledInputId, cron: '0 9 * * *' },
    }),
    expect: every(401),
  },
  {
    method: 'GET',
    route: '/api/v1/schedules',
    call: () => ({ url: '/api/v1/schedules' }),
    expect: every(401),
  },
  ...(['GET', 'PATCH', 'DELETE'] as const).map((method) => ({
    method,
    route: '/api/v1/schedules/:id',
    call: (f: Fixtures) => ({
      url: `/api/v1/schedules/${f.scheduleId}`,
      ...(method === 'PATCH' ? { body: { active: true } } : {}),
    }),
    expect: every(401),
  })),
  { method: 'GET', route: '/api/v1/me', call: () => ({ url: '/api/v1/me' }), expect: every(401) },
  // The management API takes an admin key only: no cookie, not even an admin's, opens it.
  ...(
    [
      ['GET', '/api/v1/admin/workflows', () => '/api/v1/admin/workflows'],
      ['POST', '/api/v1/admin/workflows', () => '/api/v1/admin/workflows'],
      ['GET', '/api/v1/admin/workflows/:id', (f) => `/api/v1/admin/workflows/${f.adminKeyWorkflowId}`],
      ['PATCH', '/api/v1/admin/workflows/:id', (f) => `/api/v1/admin/workflows/${f.adminKeyWorkflowId}`],
      [
        'GET',
        '/api/v1/admin/workflows/:id/secret',
        (f) => `/api/v1/admin/workflows/${f.adminKeyWorkflowId}/secret`,
      ],
      [
        'POST',
        '/api/v1/admin/workflows/:id/rotate-secret',
        (f) => `/api/v1/admin/workflows/${f.adminKeyWorkflowId}/rotate-secret`,
      ],
      [
        'PUT',
        '/api/v1/admin/workflows/:id/webhook',
        (f) => `/api/v1/admin/workflows/${f.adminKeyWorkflowId}/webhook`,
      ],
      [
        'DELETE',
        '/api/v1/admin/workflows/:id/webhook',
        (f) => `/api/v1/admin/workflows/${f.adminKeyWorkflowId}/webhook?webhookUrl=https://example.com/x`,
      ],
      [
        'POST',
        '/api/v1/admin/workflows/:id/test-runs',
        (f) => `/api/v1/admin/workflows/${f.chatWorkflowId}/test-runs`,
      ],
      ['GET', '/api/v1/admin/runs/:id', (f) => `/api/v1/admin/runs/${f.finishedRunId}`],
    ] as Array<[Row['method'], string, (f: Fixtures) => string]>
  ).map(([method, route, url]): Row => ({
    method,
    route,
    call: (f) => ({ url: url(f), ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) }),
    expect: every(401),
  })),
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
    route: '/api/v1/saved-inputs',
    call: () => ({ url: '/api/v1/saved-inputs' }),
    expect: every(401),
  },
  {
    method: 'POST',
    route: '/api/v1/saved-inputs',
    call: (f) => ({
      url: '/api/v1/saved-inputs',
      body: { workflowId: f.publicWorkflowId, name: 'matrix', answers: { q1: 'x' } },
    }),
    expect: every(401),
  },
  {
    method: 'GET',
    route: '/api/v1/saved-inputs/:id',
    call: (f) => ({ url: `/api/v1/saved-inputs/${f.savedInputId}` }),
    expect: every(401),
  },
  {
    method: 'PATCH',
    route: '/api/v1/saved-inputs/:id',
    call: (f) => ({ url: `/api/v1/saved-inputs/${f.savedInputId}`, body: { name: 'x' } }),
    expect: every(401),
  },
  {
    method: 'DELETE',
    route: '/api/v1/saved-inputs/:id',
    call: (f) => ({ url: `/api/v1/saved-inputs/${f.savedInputId}` }),
    expect: every(401),
  },
  {
    method: 'PUT',
    route: '/api/v1/saved-inputs/:id/files/:questionId',
    call: (f) => ({ url: `/api/v1/saved-inputs/${f.savedInputId}/files/q1` }),
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
  // The OAuth authorization server: apps call it without our cookie; its refusals are RFC 6749's.
  ...(
    [
      ['GET', '/oauth/authorize', 400],
      ['GET', '/oauth/authorize/:uid', 400],
      ['POST', '/oauth/token', 400],
      ['POST', '/oauth/register', 400],
      ['POST', '/oauth/revoke', 400],
      ['GET', '/oauth/jwks', 200],
    ] as const
  ).map(([method, route, status]): Row => ({
    method,
    route,
    call: () => ({ url: route.replace(':uid', 'nope'), ...(method === 'POST' ? { body: {} } : {}) }),
    expect: every(status),
  })),
  ...[
    '/.well-known/openid-configuration',
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/mcp',
    '/.well-known/oauth-protected-resource/api/v1',
  ].map((url): Row => ({ method: 'GET', route: url, call: () => ({ url }), expect: every(200) })),
  // The consent page's calls: the signed-in person's own; a request nobody made is 404 to everyone.
  {
    method: 'GET',
    route: '/api/oauth/requests/:uid',
    call: () => ({ url: '/api/oauth/requests/nope' }),
    expect: signedIn(404),
  },
  {
    method: 'POST',
    route: '/api/oauth/requests/:uid/approve',
    call: () => ({ url: '/api/oauth/requests/nope/approve', body: {} }),
    expect: signedIn(404),
  },
  // Connected apps: the person's own (someone else's is 404 too: oauth-dance.test.ts).
  {
    method: 'GET',
    route: '/api/account/connected-apps',
    call: () => ({ url: '/api/account/connected-apps' }),
    expect: signedIn(200),
  },
  {
    method: 'PATCH',
    route: '/api/account/connected-apps/:id',
    call: () => ({ url: `/api/account/connected-apps/${NO_SUCH_ID}`, body: { monthlyCreditLimit: 5 } }),
    expect: signedIn(404),
  },
  {
    method: 'DELETE',
    route: '/api/account/connected-apps/:id',
    call: () => ({ url: `/api/account/connected-apps/${NO_SUCH_ID}` }),
    expect: signedIn(404),
  },
  {
    method: 'POST',
    route: '/api/oauth/requests/:uid/deny',
    call: () => ({ url: '/api/oauth/requests/nope/deny' }),
    expect: signedIn(404),
  },
  // Last: it ends the persona's session.
  {
    method: 'POST',
    route: '/api/auth/signout',
    call: () => ({ url: '/api/auth/signout' }),
    expect: every(200),
  },
];

/** The user's endpoints the rows use: one kept (with a delivery), two deleted by the rows. */
async function userWebhooks(client: TestClient) {
  const add = async () => {
    const res = await client.post('/api/account/webhooks', {
      url: 'https://example.com/hook',
      events: ['run.completed'],
    });
    return (res.json() as { id: string }).id;
  };
  const webhookId = await add();
  const test = await client.post(`/api/account/webhooks/${webhookId}/test`);
  return {
    webhookId,
    webhookDeliveryId: (test.json() as { deliveryId: string }).deliveryId,
    doomedWebhookIds: [await add(), await add()] as [string, string],
  };
}

let t: TestApp;
let dataDir: string;
let fixtures: Fixtures;
const clients = new Map<Persona, TestClient>();

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'flujo-matrix-'));
  t = await buildTestApp({ DATA_DIR: dataDir, METRICS_TOKEN: 'matrix-metrics-token-0123456789abcdef' });
  const { db } = t.database;
  // Every cell comes from one address: requests without a live key share that address's API counter, and the
  // public API's rows outnumber its default 120 a minute. The limit itself is api-rate-limit.test.ts's.
  await db.update(adminConfig).set({ value: 100_000 }).where(eq(adminConfig.key, 'api_requests_per_minute'));
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
    .set({
      status: 'completed',
      outputType: 'text',
      outputData: 'done',
      inputData: [{ question: '¿Nombre?', answer: 'Ana' }],
    })
    .where(eq(workflowExecutions.id, finishedRunId));
  // Answers that no longer fit (q1 is required), and answers to delete.
  const [savedInput, doomedSavedInput] = await db
    .insert(savedInputs)
    .values([
      { userId: user.id, workflowId: publicWf.id, name: 'needs review', answers: {} },
      { userId: user.id, workflowId: publicWf.id, name: 'doomed', answers: { q1: 'x' } },
    ])
    .returning({ id: savedInputs.id });
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
  const adminKey = (
    await admin.post('/api/account/api-keys', { name: 'matrix admin', scope: 'admin' })
  ).json() as {
    key: string;
  };
  const adminKeyWorkflow = await wf('Admin key');
  const doomedKey = await newKey();
  const revokedKey = await newKey();
  await user.client.delete(`/api/account/api-keys/${revokedKey.id}`);
  const spare = new TestClient(t);
  await spare.post(
    '/api/auth/signin',
    { email: user.email, password: user.password },
    { 'user-agent': 'spare' },
  );
  const [spareSession] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userAgent, 'spare'));
  const newSavedInput = async (name: string) =>
    (
      await db
        .insert(savedInputs)
        .values({ userId: user.id, workflowId: publicWf.id, name, answers: { q1: 'x' } })
        .returning({ id: savedInputs.id })
    )[0]!.id;
  const schedule = async (name: string) =>
    (
      await user.client.post('/api/schedules', {
        savedInputId: await newSavedInput(name),
        cron: '0 9 * * *',
        timezone: 'UTC',
      })
    ).json<{ id: string }>().id;
  const unscheduledInputId = await newSavedInput('unscheduled');
  const keyUnscheduledInputId = await newSavedInput('unscheduled by key');
  const scheduleId = await schedule('scheduled');
  const doomedScheduleId = await schedule('doomed schedule');
  const doomedKeyScheduleId = await schedule('doomed by key');
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
    userOAuthToken: await oauthAccessToken(t, user.client, `${t.deps.config.publicUrl}/api/v1`),
    revokedApiKey: revokedKey.key,
    adminApiKey: adminKey.key,
    adminOAuthToken: await oauthAccessToken(t, admin, `${t.deps.config.publicUrl}/api/v1/admin`),
    adminKeyWorkflowId: adminKeyWorkflow.id,
    reviewId: (review.json() as { review: { id: string } }).review.id,
    spareSessionId: spareSession!.id,
    ...(await userWebhooks(user.client)),
    notificationId: (
      await db
        .insert(notifications)
        .values({
          userId: user.id,
          kind: 'low_balance',
          params: { balance: 1, threshold: 2 },
          inBell: true,
          mailState: 'none',
        })
        .returning({ id: notifications.id })
    )[0]!.id,
    unscheduledInputId,
    keyUnscheduledInputId,
    scheduleId,
    doomedScheduleId,
    doomedKeyScheduleId,
    savedInputId: savedInput!.id,
    doomedSavedInputId: doomedSavedInput!.id,
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
        const res =
          row.method === 'GET' && OPEN_STREAM_ROUTES.includes(url)
            ? await requestOpenStream(t, url, { origin: t.origin, ...(cookie ? { cookie } : {}) })
            : await client.request(row.method, url, body);
        client.cookie = cookie;
        cells += 1;
        if (res.statusCode !== row.expect[persona]) {
          wrong.push(
            `${row.method} ${row.route}${row.label ? ` (${row.label})` : ''} as ${persona}: ` +
              `${res.statusCode}, expected ${row.expect[persona]} ${res.body.slice(0, 160)}`,
          );
        }
        // The OAuth endpoints refuse as RFC 6749 says (`{ error, error_description }`, or a page for the person).
        if (res.statusCode >= 400 && !row.route.startsWith('/oauth/')) {
          expect(res.json(), `${row.method} ${url} as ${persona}`).toEqual(
            expect.objectContaining({ error: expect.any(String), code: expect.any(String) }),
          );
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(cells).toBe(MATRIX.length * PERSONAS.length);
    console.log(`authorization matrix: ${cells} cells checked over ${MATRIX.length} rows`);
    // Several hundred cells, one request each: past the default 30 s on a busy 2-core machine.
  }, 180_000);
});

/**
 * The key identities: the user's live API key ("user key"), a revoked one, the user's OAuth access token for
 * /api/v1 ("OAuth token", the user key's status unless the row says otherwise), and on the management API's
 * rows the admin's admin-scope key ("admin key") and the admin's OAuth token for the management API ("admin
 * OAuth token", the admin key's status), sent as `Authorization: Bearer` with no cookie. A key opens the public
 * API only; it opens no cookie route, and only an admin key or an admin's management token opens /api/v1/admin/.
 */
const KEY_MATRIX: Array<{
  method: Row['method'];
  url: (f: Fixtures) => string;
  body?: (f: Fixtures) => unknown;
  headers?: Record<string, string>;
  key: number;
  revoked: number;
  /**
   * The OAuth token, when it differs from the key: on /mcp, which it was not issued for, and where the key's
   * own call (just before, for the same person) already made or removed the thing.
   */
  oauth?: number;
  /** The admin's admin-scope key; checked on the rows that give it (the management API's). */
  admin?: number;
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
    oauth: 401,
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
  { method: 'GET', url: () => '/api/v1/saved-inputs', key: 200, revoked: 401 },
  {
    method: 'POST',
    url: () => '/api/v1/saved-inputs',
    body: (f) => ({ workflowId: f.publicWorkflowId, name: 'by key', answers: { q1: 'x' } }),
    key: 201,
    revoked: 401,
    // The name is taken by the key's call.
    oauth: 409,
  },
  { method: 'GET', url: (f) => `/api/v1/saved-inputs/${f.savedInputId}`, key: 200, revoked: 401 },
  {
    method: 'PATCH',
    url: (f) => `/api/v1/saved-inputs/${f.savedInputId}`,
    body: () => ({ name: 'renamed by key' }),
    key: 200,
    revoked: 401,
  },
  // No multipart body: the key passes and the owner is told to send the file.
  {
    method: 'PUT',
    url: (f) => `/api/v1/saved-inputs/${f.savedInputId}/files/q1`,
    key: 400,
    revoked: 401,
  },
  // The matrix above deleted the doomed answers: the key's owner is told they are gone.
  { method: 'DELETE', url: (f) => `/api/v1/saved-inputs/${f.doomedSavedInputId}`, key: 404, revoked: 401 },
  // Answers that need review: the key passes and the run is refused before any charge.
  {
    method: 'POST',
    url: () => '/api/v1/runs',
    body: (f) => ({ savedInputId: f.savedInputId }),
    key: 409,
    revoked: 401,
  },
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
  {
    method: 'GET',
    url: () => '/mcp',
    headers: { accept: 'application/json' },
    key: 406,
    revoked: 401,
    oauth: 401,
  },
  { method: 'DELETE', url: () => '/mcp', key: 405, revoked: 405 },
  // A script sends no Origin: the cookie routes' CSRF check refuses it before any credential is read.
  { method: 'POST', url: () => '/api/account/api-keys', body: () => ({ name: 'x' }), key: 403, revoked: 403 },
  { method: 'GET', url: () => '/api/account/api-keys', key: 401, revoked: 401 },
  { method: 'DELETE', url: (f) => `/api/account/api-keys/${f.doomedApiKeyId}`, key: 403, revoked: 403 },
  {
    method: 'POST',
    url: () => '/api/v1/schedules',
    body: (f) => ({ savedInputId: f.keyUnscheduledInputId, cron: '0 9 * * *', timezone: 'UTC' }),
    key: 201,
    revoked: 401,
    // The key's call scheduled these answers already.
    oauth: 409,
  },
  { method: 'GET', url: () => '/api/v1/schedules', key: 200, revoked: 401 },
  { method: 'GET', url: (f) => `/api/v1/schedules/${f.scheduleId}`, key: 200, revoked: 401 },
  {
    method: 'PATCH',
    url: (f) => `/api/v1/schedules/${f.scheduleId}`,
    body: () => ({ active: true }),
    key: 200,
    revoked: 401,
  },
  {
    method: 'DELETE',
    url: (f) => `/api/v1/schedules/${f.doomedKeyScheduleId}`,
    key: 200,
    revoked: 401,
    oauth: 404,
  },
  // Cookie routes: a script's key opens none of them.
  { method: 'GET', url: () => '/api/schedules', key: 401, revoked: 401 },
  {
    method: 'POST',
    url: () => '/api/v1/webhooks',
    body: () => ({ url: 'https://example.com/key-matrix', events: ['run.completed'] }),
    key: 201,
    revoked: 401,
  },
  { method: 'GET', url: () => '/api/v1/webhooks', key: 200, revoked: 401 },
  { method: 'POST', url: (f) => `/api/v1/webhooks/${f.webhookId}/test`, key: 202, revoked: 401 },
  { method: 'GET', url: (f) => `/api/v1/webhooks/${f.webhookId}/deliveries`, key: 200, revoked: 401 },
  {
    method: 'POST',
    url: (f) => `/api/v1/webhooks/${f.webhookId}/deliveries/${f.webhookDeliveryId}/redeliver`,
    key: 202,
    revoked: 401,
  },
  { method: 'POST', url: (f) => `/api/v1/webhooks/${f.webhookId}/rotate-secret`, key: 200, revoked: 401 },
  { method: 'POST', url: (f) => `/api/v1/webhooks/${f.webhookId}/enable`, key: 200, revoked: 401 },
  { method: 'POST', url: () => '/api/v1/webhooks/run-secret', key: 200, revoked: 401 },
  // The key's owner removes one of their endpoints (someone else's is 404: webhooks.test.ts).
  {
    method: 'DELETE',
    url: (f) => `/api/v1/webhooks/${f.doomedWebhookIds[1]}`,
    key: 200,
    revoked: 401,
    oauth: 404,
  },
  // A script sends no Origin: the settings screen's routes refuse it like the keys' own.
  { method: 'GET', url: () => '/api/account/webhooks', key: 401, revoked: 401 },
  { method: 'GET', url: () => '/api/auth/me', key: 401, revoked: 401 },
  { method: 'GET', url: () => '/api/executions', key: 401, revoked: 401 },
  { method: 'GET', url: () => '/api/admin/stats', key: 401, revoked: 401 },
  // The management API: an admin key of an admin only; the user's key is refused before any body is read.
  { method: 'GET', url: () => '/api/v1/admin/workflows', admin: 200, key: 403, revoked: 401 },
  {
    method: 'POST',
    url: () => '/api/v1/admin/workflows',
    body: (f) => surveyWorkflowInput(f.adminId, { isPublic: false }),
    admin: 201,
    key: 403,
    revoked: 401,
  },
  {
    method: 'GET',
    url: (f) => `/api/v1/admin/workflows/${f.adminKeyWorkflowId}`,
    admin: 200,
    key: 403,
    revoked: 401,
  },
  {
    method: 'PATCH',
    url: (f) => `/api/v1/admin/workflows/${f.adminKeyWorkflowId}`,
    body: () => ({ creditsPerExecution: 2 }),
    admin: 200,
    key: 403,
    revoked: 401,
  },
  {
    method: 'GET',
    url: (f) => `/api/v1/admin/workflows/${f.adminKeyWorkflowId}/secret`,
    admin: 200,
    key: 403,
    revoked: 401,
  },
  {
    method: 'POST',
    url: (f) => `/api/v1/admin/workflows/${f.adminKeyWorkflowId}/rotate-secret`,
    admin: 200,
    key: 403,
    revoked: 401,
  },
  {
    method: 'PUT',
    url: (f) => `/api/v1/admin/workflows/${f.adminKeyWorkflowId}/webhook`,
    body: () => ({ webhookUrl: 'https://example.com/matrix-hook' }),
    admin: 200,
    key: 403,
    revoked: 401,
  },
  {
    method: 'DELETE',
    url: (f) =>
      `/api/v1/admin/workflows/${f.adminKeyWorkflowId}/webhook?webhookUrl=https://example.com/matrix-hook`,
    admin: 200,
    key: 403,
    revoked: 401,
  },
  // A chat's test run opens without a delivery (its conversation sends it), so the row calls no service.
  {
    method: 'POST',
    url: (f) => `/api/v1/admin/workflows/${f.chatWorkflowId}/test-runs`,
    body: () => ({ language: 'es' }),
    admin: 201,
    key: 403,
    revoked: 401,
  },
  // Any run, another person's included, as the admin panel's run detail reads it.
  { method: 'GET', url: (f) => `/api/v1/admin/runs/${f.finishedRunId}`, admin: 200, key: 403, revoked: 401 },
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
      KEY_MATRIX.some(
        (row) => p.key.startsWith(`${row.method} `) && p.re.test(row.url(fixtures).split('?')[0]!),
      );
    expect(patterns.length).toBeGreaterThan(10);
    expect(patterns.filter((p) => !covered(p)).map((p) => p.key)).toEqual([]);
  });

  it('answers every cell with the status the table gives', async () => {
    const wrong: string[] = [];
    for (const row of KEY_MATRIX) {
      const identities: Array<readonly [string, string, number]> = [
        ['user key', fixtures.userApiKey, row.key],
        ['revoked key', fixtures.revokedApiKey, row.revoked],
        ['OAuth token', fixtures.userOAuthToken, row.oauth ?? row.key],
      ];
      if (row.admin !== undefined) {
        identities.push(['admin key', fixtures.adminApiKey, row.admin]);
        identities.push(['admin OAuth token', fixtures.adminOAuthToken, row.admin]);
      }
      for (const [who, key, status] of identities) {
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
