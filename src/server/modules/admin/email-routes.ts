import { ZAdminEmailListQuery } from '#shared/contract/admin.js';
import { ZIdParams, ZOk } from '#shared/contract/common.js';
import { ZAdminEmail, ZAdminEmailDetail, ZAdminEmailList } from '#shared/contract/emails.js';
import { errorAnswers } from '#server/lib/errors.js';
import { requireAdmin } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import { getEmail, listEmails, retryEmail, sendPasswordResetAsAdmin } from './emails.js';
import { adminListRoute } from './routes.js';

const errors = errorAnswers(400, 401, 403, 404, 409);
const tags = ['admin'];

/** The outbox as admins read it, and the reset link an admin can send. Mounted at /api/admin (guarded). */
export async function adminEmailRoutes(app: App, deps: AppDeps): Promise<void> {
  adminListRoute(
    app,
    '/emails',
    'Mails in the outbox, newest first (held ones were never sent: no SMTP server)',
    ZAdminEmailListQuery,
    ZAdminEmailList,
    (query) => listEmails(deps.db, query),
  );

  app.get(
    '/emails/:id',
    {
      schema: {
        tags,
        summary: 'One mail with its text and HTML parts',
        params: ZIdParams,
        response: { 200: ZAdminEmailDetail, ...errors },
      },
    },
    async (request) => getEmail(deps.db, request.params.id),
  );

  app.post(
    '/emails/:id/retry',
    {
      schema: {
        tags,
        summary: 'Send a failed mail again',
        params: ZIdParams,
        response: { 200: ZAdminEmail, ...errors },
      },
    },
    async (request) => retryEmail(deps, (await requireAdmin(request)).id, request.params.id),
  );

  app.post(
    '/users/:id/password-reset',
    {
      schema: {
        tags,
        summary: "Mail the user a password reset link (an admin never sets someone's password)",
        params: ZIdParams,
        response: { 202: ZOk, ...errors },
      },
    },
    async (request, reply) => {
      await sendPasswordResetAsAdmin(deps, (await requireAdmin(request)).id, request.params.id);
      return reply.status(202).send({ ok: true as const });
    },
  );
}
