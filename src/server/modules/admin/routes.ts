import type { FastifyReply, FastifyTypeProviderDefault } from 'fastify';
import type { z } from 'zod';
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
import { listConnectedApps } from '../oauth/service.js';
import { revokeConnectedAppAsAdmin } from './connected-apps.js';
import { ZConnectedAppList } from '#shared/contract/oauth.js';
import { ZOk } from '#shared/contract/common.js';
import {
  createWorkflowAsAdmin,
  getWorkflowDetail,
  getWorkflowSecret,
  rotateSecretAsAdmin,
  updateWorkflowAsAdmin,
} from './workflows.js';

const errors = errorAnswers(400, 401, 403, 404, 409);
const tags = ['admin'];

/** A list page: the rows as the body, the total of all pages in X-Total-Count (and whether it is estimated). */
export function sendPage<T>(
  reply: FastifyReply,
  page: { rows: T[]; total: number; estimated?: boolean },
): T[] {
  void reply.header(TOTAL_COUNT_HEADER, String(page.total));
  if (page.estimated) void reply.header(TOTAL_ESTIMATED_HEADER, 'true');
  return page.rows;
}

/**
 * An admin list: GET `path` with its search and filters in the query string, one page of `rows` as the body
 * and its totals in headers (sendPage).
 */
export function adminListRoute<Q extends z.ZodType, L extends z.ZodArray<z.ZodType>>(
  app: App,
  path: string,
  summary: string,
  querystring: Q,
  rows: L,
  list: (query: z.output<Q>) => Promise<Page<z.output<L>[number]>>,
): void {
  // The schema still validates the query and serialises the page; `list`'s type is what ties the two together
  // here, as the type provider cannot resolve a schema that is a type parameter.
  app
    .withTypeProvider<FastifyTypeProviderDefault>()
    .get(
      path,
      { schema: { tags, summary, querystring, response: { 200: rows, ...errors } } },
      async (request, reply) => sendPage(reply, await list(request.query as z.output<Q>)),
    );
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
  adminListRoute(
    app,
    '/users',
    'Users (search: e-mail or name)',
    ZAdminUserListQuery,
    ZAdminUserList,
    (query) => listUsers(db, query),
  );
  adminListRoute(
    app,
    '/workflows',
    'Workflows (search: name or description)',
    ZAdminWorkflowListQuery,
    ZAdminWorkflowList,
    (query) => listWorkflows(db, query, deps.now()),
  );
  adminListRoute(
    app,
    '/executions',
    'Runs (search: workflow name or user e-mail)',
    ZAdminExecutionListQuery,
    ZAdminExecutionList,
    (query) => listExecutions(db, query),
  );
  adminListRoute(
    app,
    '/credits',
    'Ledger rows (search: user e-mail)',
    ZAdminCreditListQuery,
    ZAdminCreditTransactionList,
    (query) => listCreditTransactions(db, query),
  );
  adminListRoute(
    app,
    '/audit',
    'Audit log (search: admin e-mail or action)',
    ZAdminAuditListQuery,
    ZAdminAuditList,
    (query) => listAudit(db, query),
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

  app.get(
    '/users/:id/connected-apps',
    {
      schema: {
        tags,
        summary: 'The apps a user connected with OAuth',
        params: ZIdParams,
        response: { 200: ZConnectedAppList, ...errors },
      },
    },
    async (request) => ({ apps: await listConnectedApps(deps, request.params.id) }),
  );
  app.delete(
    '/users/:id/connected-apps/:appId',
    {
      schema: {
        tags,
        summary: 'Revoke a user’s connected app at once (audited)',
        params: ZIdParams.extend({ appId: ZIdParams.shape.id }),
        response: { 200: ZOk, ...errors },
      },
    },
    async (request) => {
      await revokeConnectedAppAsAdmin(deps, await adminId(request), request.params.id, request.params.appId);
      return { ok: true as const };
    },
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
