import type { FastifyReply } from 'fastify';
import {
  TOTAL_COUNT_HEADER,
  TOTAL_ESTIMATED_HEADER,
  ZAdjustCreditsRequest,
  ZAdjustCreditsResponse,
  ZAdminAuditList,
  ZAdminAuditListQuery,
  ZAdminConfigEntry,
  ZAdminConfigList,
  ZAdminConfigUpdate,
  ZAdminCreditListQuery,
  ZAdminCreditTransactionList,
  ZAdminExecutionList,
  ZAdminExecutionListQuery,
  ZAdminStats,
  ZAdminUser,
  ZAdminUserList,
  ZAdminUserListQuery,
  ZAdminUserUpdate,
  ZAdminWorkflowCreate,
  ZAdminWorkflowDetail,
  ZAdminWorkflowList,
  ZAdminWorkflowListQuery,
  ZAdminWorkflowUpdate,
  ZWorkflowSecret,
} from '#shared/contract/admin.js';
import { ZIdParams } from '#shared/contract/common.js';
import { errorAnswers } from '#server/lib/errors.js';
import { demoPaymentsInProduction } from '#server/config.js';
import { requireAdmin } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { listConfig, updateConfig } from './config.js';
import {
  listAudit,
  listCreditTransactions,
  listExecutions,
  listUsers,
  listWorkflows,
  type Page,
} from './lists.js';
import { getAdminStats } from './stats.js';
import { adjustCredits, updateUser } from './users.js';
import {
  createWorkflowAsAdmin,
  getWorkflowDetail,
  getWorkflowSecret,
  rotateSecretAsAdmin,
  updateWorkflowAsAdmin,
} from './workflows.js';

const errors = errorAnswers(400, 401, 403, 404, 409);
const tags = ['admin'];

/** A list page: the rows as the body, the total of all pages in X-Total-Count. */
export function sendPage<T>(reply: FastifyReply, page: Page<T>): T[] {
  void reply.header(TOTAL_COUNT_HEADER, String(page.total));
  if (page.estimated) void reply.header(TOTAL_ESTIMATED_HEADER, 'true');
  return page.rows;
}

/** Every /api/admin route; the admin guard is applied to the whole prefix in app.ts. Mounted at /api/admin. */
export async function adminRoutes(app: App, deps: AppDeps): Promise<void> {
  const { db } = deps;
  // The prefix guard has already refused anyone else; this gives the handler the admin's identity.
  const adminId = async (request: Parameters<typeof requireAdmin>[0]) => (await requireAdmin(request)).id;

  app.get(
    '/stats',
    {
      schema: {
        tags,
        summary: 'Dashboard totals, top workflows, recent runs, 30-day series',
        response: { 200: ZAdminStats, ...errors },
      },
    },
    async () => ({
      ...(await getAdminStats(db, deps.now())),
      demoPayments: demoPaymentsInProduction(deps.config),
      demoAssistant: deps.config.llm === undefined,
    }),
  );

  // Lists -----------------------------------------------------------------------------------------------------
  app.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'Users (search: e-mail or name)',
        querystring: ZAdminUserListQuery,
        response: { 200: ZAdminUserList, ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await listUsers(db, request.query)),
  );
  app.get(
    '/workflows',
    {
      schema: {
        tags,
        summary: 'Workflows (search: name or description)',
        querystring: ZAdminWorkflowListQuery,
        response: { 200: ZAdminWorkflowList, ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await listWorkflows(db, request.query)),
  );
  app.get(
    '/executions',
    {
      schema: {
        tags,
        summary: 'Runs (search: workflow name or user e-mail)',
        querystring: ZAdminExecutionListQuery,
        response: { 200: ZAdminExecutionList, ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await listExecutions(db, request.query)),
  );
  app.get(
    '/credits',
    {
      schema: {
        tags,
        summary: 'Ledger rows (search: user e-mail)',
        querystring: ZAdminCreditListQuery,
        response: { 200: ZAdminCreditTransactionList, ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await listCreditTransactions(db, request.query)),
  );
  app.get(
    '/audit',
    {
      schema: {
        tags,
        summary: 'Audit log (search: admin e-mail or action)',
        querystring: ZAdminAuditListQuery,
        response: { 200: ZAdminAuditList, ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await listAudit(db, request.query)),
  );

  // Workflows -------------------------------------------------------------------------------------------------
  app.post(
    '/workflows',
    {
      schema: {
        tags,
        summary: 'Create a workflow',
        body: ZAdminWorkflowCreate,
        response: { 201: ZAdminWorkflowDetail, ...errors },
      },
    },
    async (request, reply) => {
      const created = await createWorkflowAsAdmin(db, await adminId(request), request.body);
      return reply.status(201).send(created);
    },
  );
  app.get(
    '/workflows/:id',
    {
      schema: {
        tags,
        summary: 'A workflow with every field, for editing',
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
        summary: 'Change a workflow ({ isActive } alone switches it on or off)',
        params: ZIdParams,
        body: ZAdminWorkflowUpdate,
        response: { 200: ZAdminWorkflowDetail, ...errors },
      },
    },
    async (request) => updateWorkflowAsAdmin(db, await adminId(request), request.params.id, request.body),
  );
  app.get(
    '/workflows/:id/secret',
    {
      schema: {
        tags,
        summary: "The workflow's webhook signing secret",
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
        summary: 'New signing secret; the old one still signs for 24 h',
        params: ZIdParams,
        response: { 200: ZWorkflowSecret, ...errors },
      },
    },
    async (request) => rotateSecretAsAdmin(db, await adminId(request), request.params.id, deps.now()),
  );

  // Users -----------------------------------------------------------------------------------------------------
  app.post(
    '/users/adjust-credits',
    {
      schema: {
        tags,
        summary: 'Add or take credits (never below zero)',
        body: ZAdjustCreditsRequest,
        response: { 200: ZAdjustCreditsResponse, ...errors },
      },
    },
    async (request) => adjustCredits(deps, await adminId(request), request.body),
  );
  app.patch(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'Suspend, reactivate, promote or demote a user',
        params: ZIdParams,
        body: ZAdminUserUpdate,
        response: { 200: ZAdminUser, ...errors },
      },
    },
    async (request) => updateUser(db, await adminId(request), request.params.id, request.body),
  );

  // Configuration ---------------------------------------------------------------------------------------------
  app.get(
    '/config',
    {
      schema: { tags, summary: 'Live configuration entries', response: { 200: ZAdminConfigList, ...errors } },
    },
    async () => listConfig(db),
  );
  app.patch(
    '/config/:id',
    {
      schema: {
        tags,
        summary: "Change an entry's value (checked by the key's own schema)",
        params: ZIdParams,
        body: ZAdminConfigUpdate,
        response: { 200: ZAdminConfigEntry, ...errors },
      },
    },
    async (request) => updateConfig(db, await adminId(request), request.params.id, request.body.value),
  );
}
