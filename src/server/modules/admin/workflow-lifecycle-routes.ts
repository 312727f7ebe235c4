import { ZAdminWorkflowDetail, ZTestRunRequest, ZTestRunResponse } from '#shared/contract/admin.js';
import { ZIdParams } from '#shared/contract/common.js';
import {
  ZWorkflowVersion,
  ZWorkflowVersionList,
  ZWorkflowVersionListQuery,
  ZWorkflowVersionParams,
} from '#shared/contract/workflow-versions.js';
import { ZPublicWorkflowDetail } from '#shared/contract/workflows.js';
import { errorAnswers } from '#server/lib/errors.js';
import { requireAdmin } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { openTestRun } from '../executions/service.js';
import { getVersion, listVersions, publicWorkflowDetail } from '../workflows/service.js';
import { sendPage } from './routes.js';
import { restoreVersionAsAdmin, setArchivedAsAdmin } from './workflows.js';

const errors = errorAnswers(400, 401, 403, 404, 409);
const tags = ['admin'];

/**
 * A workflow's versions, archiving and test runs (issue 26, decisions 147-149). Mounted at /api/admin behind
 * the admin guard.
 */
export async function workflowLifecycleRoutes(app: App, deps: AppDeps): Promise<void> {
  const { db } = deps;

  // Versions --------------------------------------------------------------------------------------------------
  app.get(
    '/workflows/:id/versions',
    {
      schema: {
        tags,
        summary: "A workflow's versions, newest first (total in X-Total-Count)",
        params: ZIdParams,
        querystring: ZWorkflowVersionListQuery,
        response: { 200: ZWorkflowVersionList, ...errors },
      },
    },
    async (request, reply) => sendPage(reply, await listVersions(db, request.params.id, request.query)),
  );
  app.get(
    '/workflows/:id/versions/:version',
    {
      schema: {
        tags,
        summary: 'One version of a workflow with what it kept (never the secret)',
        params: ZWorkflowVersionParams,
        response: { 200: ZWorkflowVersion, ...errors },
      },
    },
    async (request) => getVersion(db, request.params.id, request.params.version),
  );
  app.post(
    '/workflows/:id/versions/:version/restore',
    {
      schema: {
        tags,
        summary: 'Make an earlier version current again, as a new version (audited)',
        params: ZWorkflowVersionParams,
        response: { 200: ZAdminWorkflowDetail, ...errors },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      return restoreVersionAsAdmin(db, admin.id, request.params.id, request.params.version);
    },
  );

  // Archive ---------------------------------------------------------------------------------------------------
  for (const [path, archived, summary] of [
    ['archive', true, 'Archive a workflow: out of the catalogue, not startable, nothing deleted (audited)'],
    ['unarchive', false, 'Bring an archived workflow back (audited)'],
  ] as const) {
    app.post(
      `/workflows/:id/${path}`,
      {
        schema: { tags, summary, params: ZIdParams, response: { 200: ZAdminWorkflowDetail, ...errors } },
      },
      async (request) => {
        const admin = await requireAdmin(request);
        return setArchivedAsAdmin(db, admin.id, request.params.id, archived, deps.now());
      },
    );
  }

  // Test runs -------------------------------------------------------------------------------------------------
  app.get(
    '/workflows/:id/test-run',
    {
      schema: {
        tags,
        summary: "What a test run's screen shows (any workflow, whatever its state)",
        params: ZIdParams,
        response: { 200: ZPublicWorkflowDetail, ...errors },
      },
    },
    async (request) => ({
      ...(await publicWorkflowDetail(db, request.params.id, 'test')),
      demoAssistant: deps.config.llm === undefined,
    }),
  );
  app.post(
    '/workflows/:id/test-runs',
    {
      schema: {
        tags,
        summary: 'Open a test run: the real webhook, charged to no one, counted nowhere',
        params: ZIdParams,
        body: ZTestRunRequest,
        response: { 201: ZTestRunResponse, ...errors },
      },
    },
    async (request, reply) => {
      const admin = await requireAdmin(request);
      const language = request.body.language ?? admin.language ?? 'en';
      return reply.status(201).send(await openTestRun(deps, admin, request.params.id, language));
    },
  );
}
