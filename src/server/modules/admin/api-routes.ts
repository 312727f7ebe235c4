import { and, eq, sql } from 'drizzle-orm';
import {
  ZAdminApiTestRunCreate,
  ZAdminWebhookRegistration,
  ZAdminWebhookRemoval,
  ZAdminWorkflowCreate,
  ZAdminWorkflowDetail,
  ZAdminWorkflowList,
  ZAdminWorkflowListQuery,
  ZAdminWorkflowUpdate,
  ZWorkflowSecret,
  type TAdminWorkflowDetail,
} from '#shared/contract/admin.js';
import { ZIdParams } from '#shared/contract/common.js';
import { ZAdminRunDetail } from '#shared/contract/operations.js';
import type { Db } from '#server/db/client.js';
import { userWorkflows } from '#server/db/schema.js';
import { Closing } from '#server/lib/closing.js';
import { AppError, badRequest, errorAnswers } from '#server/lib/errors.js';
import { requireAdminKey } from '#server/plugins/api-key.js';
import type { App, AppDeps } from '#server/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { completeRun, discardTestRun, openTestRun } from '../executions/service.js';
import { type AdminActor, writeAudit } from './audit.js';
import { listWorkflows } from './lists.js';
import { runDetail } from './run-detail.js';
import { sendPage } from './routes.js';
import {
  createWorkflowAsAdmin,
  getWorkflowDetail,
  getWorkflowSecret,
  rotateSecretAsAdmin,
  updateWorkflowAsAdmin,
} from './workflows.js';

const tags = ['admin API'];
const security = [{ apiKey: [] }];
const errors = errorAnswers(400, 401, 403, 404, 409, 429);

/**
 * Switches the workflow off if `webhookUrl` is still the one it calls: the service at that URL has stopped
 * answering (its n8n workflow was deactivated). A URL registered since (the workflow moved to another n8n)
 * keeps it on. One conditional update, so a registration racing with it is never undone.
 */
async function unregisterWebhook(
  db: Db,
  actor: AdminActor,
  id: string,
  webhookUrl: string,
): Promise<TAdminWorkflowDetail> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(userWorkflows)
      .set({ isActive: false, updatedAt: sql`now()` })
      .where(
        and(
          eq(userWorkflows.id, id),
          eq(userWorkflows.webhookUrl, webhookUrl),
          eq(userWorkflows.isActive, true),
        ),
      )
      .returning({ name: userWorkflows.name });
    if (!row) return;
    await writeAudit(tx, {
      adminId: actor,
      action: 'workflow_status_changed',
      targetType: 'workflow',
      targetId: id,
      details: { name: row.name, isActive: { from: true, to: false }, webhookUnregistered: true },
    });
  });
  return getWorkflowDetail(db, id);
}

/**
 * The management API for admin API keys (decision 152), mounted at /api/v1/admin: the admin panel's workflow
 * calls with the same contracts, for scripts and the n8n node package. The guard (an admin key of an account
 * that is still an admin) runs on the whole prefix before any body is read; every change is audited like the
 * panel's, with the key named in the entry.
 */
export async function adminApiRoutes(app: App, deps: AppDeps): Promise<void> {
  const { db } = deps;
  // A test run waiting for its result ends when the server closes, so a shutdown is not held up by it.
  const closing = new Closing(app);
  app.addHook('onRequest', async (request, reply) => {
    await requireAdminKey(request, reply, deps);
  });
  const actor = async (request: FastifyRequest, reply: FastifyReply): Promise<AdminActor> => {
    // Looked up once per request: the guard's lookup is reused here.
    const principal = await requireAdminKey(request, reply, deps);
    return { adminId: principal.user.id, apiKey: { id: principal.keyId, name: principal.keyName } };
  };

  app.get(
    '/workflows',
    {
      schema: {
        tags,
        security,
        summary: 'Every workflow, as the admin panel lists them (total in X-Total-Count)',
        querystring: ZAdminWorkflowListQuery,
        response: { 200: ZAdminWorkflowList, ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await listWorkflows(db, request.query, deps.now())),
  );
  app.post(
    '/workflows',
    {
      schema: {
        tags,
        security,
        summary: 'Create a workflow (the create page form; the owner must exist)',
        body: ZAdminWorkflowCreate,
        response: { 201: ZAdminWorkflowDetail, ...errors },
      },
    },
    async (request, reply) => {
      const created = await createWorkflowAsAdmin(db, await actor(request, reply), request.body);
      return reply.status(201).send(created);
    },
  );
  app.get(
    '/workflows/:id',
    {
      schema: {
        tags,
        security,
        summary: 'A workflow with every field',
        params: ZIdParams,
        response: { 200: ZAdminWorkflowDetail, ...errors },
      },
    },
    async (request) => getWorkflowDetail(db, request.params.id),
  );
  app.patch(
    '/workflows/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change a workflow ({ isActive } alone switches it on or off)',
        params: ZIdParams,
        body: ZAdminWorkflowUpdate,
        response: { 200: ZAdminWorkflowDetail, ...errors },
      },
    },
    async (request, reply) =>
      updateWorkflowAsAdmin(db, await actor(request, reply), request.params.id, request.body),
  );
  app.get(
    '/workflows/:id/secret',
    {
      schema: {
        tags,
        security,
        summary: "The workflow's Standard Webhooks signing secret",
        params: ZIdParams,
        response: { 200: ZWorkflowSecret, ...errors },
      },
    },
    async (request) => getWorkflowSecret(db, request.params.id, deps.now()),
  );
  app.post(
    '/workflows/:id/rotate-secret',
    {
      schema: {
        tags,
        security,
        summary: 'New signing secret; the old one still signs for 24 h',
        params: ZIdParams,
        response: { 200: ZWorkflowSecret, ...errors },
      },
    },
    async (request, reply) =>
      rotateSecretAsAdmin(db, await actor(request, reply), request.params.id, deps.now()),
  );
  app.put(
    '/workflows/:id/webhook',
    {
      schema: {
        tags,
        security,
        summary: "Register the service's webhook URL and switch the workflow on",
        description:
          'What an n8n Flujo Trigger calls when its workflow is activated. The workflow stays private until ' +
          'an admin publishes it.',
        params: ZIdParams,
        body: ZAdminWebhookRegistration,
        response: { 200: ZAdminWorkflowDetail, ...errors },
      },
    },
    async (request, reply) =>
      updateWorkflowAsAdmin(db, await actor(request, reply), request.params.id, {
        webhookUrl: request.body.webhookUrl,
        isActive: true,
      }),
  );
  app.delete(
    '/workflows/:id/webhook',
    {
      schema: {
        tags,
        security,
        summary: 'The service no longer answers at this URL: switch the workflow off',
        description:
          'Changes nothing when the workflow calls another URL by now (registered since) or is already off.',
        params: ZIdParams,
        querystring: ZAdminWebhookRemoval,
        response: { 200: ZAdminWorkflowDetail, ...errors },
      },
    },
    async (request, reply) =>
      unregisterWebhook(db, await actor(request, reply), request.params.id, request.query.webhookUrl),
  );

  app.post(
    '/workflows/:id/test-runs',
    {
      schema: {
        tags,
        security,
        summary: 'Test a workflow: a run on its real webhook, charged to no one and counted nowhere',
        description:
          "The admin panel's test run (any workflow: private, inactive, archived or paused), as the key owner's. " +
          'A survey is sent at once with `responses` (`questionId` and `answer`, checked as every run is; 400 ' +
          'names the fields and leaves nothing behind); `wait` holds the answer up to that many seconds for ' +
          'the result. A chat takes no responses: its run is answered `pending`, and its conversation goes ' +
          'through POST /api/v1/runs/{id}/messages with the same key (never charged). Follow the run, with its ' +
          'delivery log, at GET /api/v1/admin/runs/{id}.',
        params: ZIdParams,
        body: ZAdminApiTestRunCreate,
        response: { 201: ZAdminRunDetail, ...errors },
      },
    },
    async (request, reply) => {
      const principal = await requireAdminKey(request, reply, deps);
      const admin = principal.user;
      const { language, responses, wait } = request.body;
      const workflow = await getWorkflowDetail(db, request.params.id);
      const chat = workflow.interactionType === 'chatbot';
      if (chat && responses !== undefined) {
        throw badRequest('chatTakesNoAnswers', {
          fields: [{ field: 'responses', message: 'not for a chat' }],
        });
      }
      // The test screen's two steps in one: the run opened as the panel opens it, then sent as its form sends
      // it (the complete call's own checks and delivery).
      const { executionId } = await openTestRun(deps, admin, workflow.id, language ?? admin.language);
      if (!chat) {
        await closing.during(async (signal) => {
          try {
            await completeRun(
              deps,
              admin.id,
              executionId,
              { responses: responses ?? [] },
              signal,
              (wait ?? 0) * 1000,
            );
          } catch (err) {
            // Refused before it was sent (its answers): the request leaves no run behind.
            if (err instanceof AppError) await discardTestRun(deps, executionId);
            throw err;
          }
        });
      }
      return reply.status(201).send(await runDetail(db, executionId));
    },
  );
  app.get(
    '/runs/:id',
    {
      schema: {
        tags,
        security,
        summary:
          'A run with its answers, its delivery log (webhook calls, result callbacks) and its ledger rows',
        description: "The admin panel's run detail: any run, a test run's included.",
        params: ZIdParams,
        response: { 200: ZAdminRunDetail, ...errors },
      },
    },
    async (request) => runDetail(db, request.params.id),
  );
}
