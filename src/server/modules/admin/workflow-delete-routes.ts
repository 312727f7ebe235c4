import { ZIdParams } from '#shared/contract/common.js';
import { ZDeleteWorkflowResponse } from '#shared/contract/admin.js';
import { requireAdmin } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { deleteWorkflowAsAdmin } from './workflows.js';
import { errorAnswers } from '#server/lib/errors.js';

/** DELETE /api/workflows/{id} (the documented public path, admins only). Mounted at /api/workflows behind the admin guard. */
export async function workflowDeleteRoutes(app: App, deps: AppDeps): Promise<void> {
  app.delete(
    '/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete a workflow with its runs (ledger rows stay, without the workflow)',
        params: ZIdParams,
        response: { 200: ZDeleteWorkflowResponse, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const admin = await requireAdmin(request);
      const { deletedExecutions } = await deleteWorkflowAsAdmin(deps, admin.id, request.params.id);
      return { ok: true as const, deletedExecutions };
    },
  );
}
