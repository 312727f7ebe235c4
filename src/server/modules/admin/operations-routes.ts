import { eq } from 'drizzle-orm';
import { ZIdParams } from '#shared/contract/common.js';
import { ZErrorBody } from '#shared/contract/errors.js';
import {
  ZAdminRunDetail,
  ZAlertPreference,
  ZIncidentList,
  ZPauseResponse,
  ZRetryDeliveryResponse,
  ZWorkflowHealth,
} from '#shared/contract/operations.js';
import { userProfiles } from '#server/db/schema.js';
import { Closing } from '#server/lib/closing.js';
import { errorAnswers, notFound } from '#server/lib/errors.js';
import { requireAdmin, requireSession } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { sessionIsLive } from '../auth/service.js';
import {
  RUN_EVENTS_SCHEMA,
  retryDeliveryNow,
  streamRunEvents,
  type StreamAccess,
} from '../executions/service.js';
import { openIncidents, setPaused, workflowHealth } from '../operations/service.js';
import { runDetail } from './run-detail.js';

const errors = errorAnswers(400, 401, 403, 404, 409);
const tags = ['admin'];

/**
 * The operator's view of workflows' services (decisions 144-146): a run's delivery log, "retry delivery
 * now", a workflow's health, incidents, pausing and resuming, and each admin's choice of alert mails.
 * Mounted at /api/admin, behind the admin guard.
 */
export async function adminOperationsRoutes(app: App, deps: AppDeps): Promise<void> {
  const { db } = deps;
  const closing = new Closing(app);
  app.get(
    '/executions/:id',
    {
      schema: {
        tags,
        summary:
          'A run with its answers, its delivery log (webhook calls, result callbacks) and its ledger rows',
        params: ZIdParams,
        response: { 200: ZAdminRunDetail, ...errors },
      },
    },
    async (request) => runDetail(db, request.params.id),
  );
  app.get(
    '/executions/:id/events',
    {
      schema: {
        tags,
        ...RUN_EVENTS_SCHEMA,
        summary:
          "Server-sent events: any run's admin detail (event `execution`) on every change, its delivery log included, until it ends",
        response: {
          ...RUN_EVENTS_SCHEMA.response,
          ...errors,
          429: ZErrorBody.describe('Too many open event streams (`max_event_streams_per_user`)'),
        },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = await requireSession(request);
      // The stream outlives the request's admin check: it ends with the session, and a reconnection after a
      // demotion is refused by the admin guard.
      const access: StreamAccess = {
        credential: `session:${sessionId}`,
        isLive: () => sessionIsLive(db, sessionId),
      };
      const runId = request.params.id;
      await closing.during((signal) =>
        streamRunEvents(deps, user.id, runId, access, request, reply, signal, () => runDetail(db, runId)),
      );
    },
  );
  app.post(
    '/executions/:id/retry-delivery',
    {
      schema: {
        tags,
        summary: 'Deliver a running run to its workflow service now (only while a retry is scheduled)',
        params: ZIdParams,
        response: { 200: ZRetryDeliveryResponse, ...errors },
      },
    },
    async (request) => {
      await retryDeliveryNow(deps, request.params.id);
      return { ok: true as const };
    },
  );
  app.get(
    '/workflows/:id/health',
    {
      schema: {
        tags,
        summary: "A workflow's health over 24 hours, 7 and 30 days, its daily series and its incidents",
        params: ZIdParams,
        response: { 200: ZWorkflowHealth, ...errors },
      },
    },
    async (request) => workflowHealth(db, request.params.id, deps.now()),
  );
  for (const action of ['pause', 'resume'] as const) {
    app.post(
      `/workflows/:id/${action}`,
      {
        schema: {
          tags,
          summary:
            action === 'pause'
              ? 'Pause a workflow: it cannot be started (409 WORKFLOW_PAUSED) until resumed; audited'
              : 'Resume a paused workflow; audited',
          params: ZIdParams,
          response: { 200: ZPauseResponse, ...errors },
        },
      },
      async (request) =>
        setPaused(db, (await requireAdmin(request)).id, request.params.id, action === 'pause', deps.now()),
    );
  }
  app.get(
    '/incidents',
    {
      schema: {
        tags,
        summary: "Workflows' open incidents, newest first (at most 100)",
        response: { 200: ZIncidentList, ...errors },
      },
    },
    async () => openIncidents(db),
  );
  app.get(
    '/alerts/me',
    {
      schema: {
        tags,
        summary: 'Whether this admin gets the workflow alert mails',
        response: { 200: ZAlertPreference, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      const [row] = await db
        .select({ workflowAlerts: userProfiles.workflowAlerts })
        .from(userProfiles)
        .where(eq(userProfiles.id, admin.id));
      if (!row) throw notFound('account');
      return row;
    },
  );
  app.put(
    '/alerts/me',
    {
      schema: {
        tags,
        summary: 'Turn the workflow alert mails on or off for this admin',
        body: ZAlertPreference,
        response: { 200: ZAlertPreference, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      const [row] = await db
        .update(userProfiles)
        .set({ workflowAlerts: request.body.workflowAlerts })
        .where(eq(userProfiles.id, admin.id))
        .returning({ workflowAlerts: userProfiles.workflowAlerts });
      if (!row) throw notFound('account');
      return row;
    },
  );
}
