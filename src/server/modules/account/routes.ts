import {
  ZAccountDelete,
  ZAccountExport,
  ZAccountSessionList,
  ZAccountSessionParams,
  ZEmailChange,
  ZEmailChangeResponse,
  ZPasswordChange,
  ZProfileUpdate,
  ZRevokeOthersResponse,
} from '#shared/contract/account.js';
import { ZSessionUser } from '#shared/contract/auth.js';
import { ZOk } from '#shared/contract/common.js';
import { ZErrorBody } from '#shared/contract/errors.js';
import { clearSessionCookie, requireSession } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import {
  changePassword,
  deleteAccount,
  exportAccount,
  listSessions,
  requestEmailChange,
  revokeOtherSessions,
  revokeSession,
  updateProfile,
} from './service.js';
import { errorAnswers } from '#server/lib/errors.js';

/** The signed-in person's own account settings; every route acts on the session's account only. */
export async function accountRoutes(app: App, deps: AppDeps): Promise<void> {
  const errors = { 400: ZErrorBody, 401: ZErrorBody, 409: ZErrorBody, 429: ZErrorBody };

  app.patch(
    '/profile',
    {
      schema: {
        tags: ['account'],
        summary: 'Change the name or the language (of mails and server texts)',
        body: ZProfileUpdate,
        response: { 200: ZSessionUser, ...errors },
      },
    },
    async (request) => updateProfile(deps, (await requireSession(request)).user.id, request.body),
  );

  app.post(
    '/password',
    {
      schema: {
        tags: ['account'],
        summary:
          'Change the password (needs the current one); every other session ends, and the API keys are revoked unless `keepApiAccess`',
        body: ZPasswordChange,
        response: { 200: ZOk, ...errors },
      },
    },
    async (request) => {
      const { user, sessionId } = await requireSession(request);
      await changePassword(deps, user.id, sessionId, request.body);
      return { ok: true as const };
    },
  );

  app.post(
    '/email',
    {
      schema: {
        tags: ['account'],
        summary: 'Change the e-mail address: applies when the link mailed to the new address is opened',
        body: ZEmailChange,
        response: { 202: ZEmailChangeResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      return reply.status(202).send(await requestEmailChange(deps, user.id, request.body));
    },
  );

  app.get(
    '/sessions',
    {
      schema: {
        tags: ['account'],
        summary: 'The signed-in devices: browser and system, rough place, last use, which one is this',
        response: { 200: ZAccountSessionList, ...errorAnswers(401) },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = await requireSession(request);
      void reply.header('cache-control', 'no-store');
      return listSessions(deps, user.id, sessionId);
    },
  );

  app.delete(
    '/sessions/:id',
    {
      schema: {
        tags: ['account'],
        summary: "Sign out one device of the account (404 for a session that is not the caller's)",
        params: ZAccountSessionParams,
        response: { 200: ZOk, ...errorAnswers(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const { user, sessionId } = await requireSession(request);
      await revokeSession(deps, user.id, request.params.id);
      if (request.params.id === sessionId) clearSessionCookie(reply, deps);
      return { ok: true as const };
    },
  );

  app.post(
    '/sessions/revoke-others',
    {
      schema: {
        tags: ['account'],
        summary: 'Sign out of every other device',
        response: { 200: ZRevokeOthersResponse, ...errorAnswers(401) },
      },
    },
    async (request) => {
      const { user, sessionId } = await requireSession(request);
      return { ok: true as const, revoked: await revokeOtherSessions(deps, user.id, sessionId) };
    },
  );

  app.get(
    '/export',
    {
      schema: {
        tags: ['account'],
        summary: 'Download everything the account holds (a JSON file)',
        response: { 200: ZAccountExport, ...errorAnswers(401) },
      },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      const data = await exportAccount(deps, user.id);
      const day = data.exportedAt.slice(0, 10);
      void reply
        .header('content-disposition', `attachment; filename="flujo-data-${day}.json"`)
        .header('cache-control', 'no-store');
      return data;
    },
  );

  app.post(
    '/delete',
    {
      schema: {
        tags: ['account'],
        summary:
          'Delete the account (needs the password): signed out, personal data erased, ledger kept anonymised',
        body: ZAccountDelete,
        response: { 200: ZOk, ...errors },
      },
    },
    async (request, reply) => {
      const { user } = await requireSession(request);
      await deleteAccount(deps, user.id, request.body.password);
      clearSessionCookie(reply, deps);
      return { ok: true as const };
    },
  );
}
