import { ZSessionUser, ZSigninRequest, ZSignupRequest } from '../../../shared/contract/auth.js';
import { ZOk } from '../../../shared/contract/common.js';
import { ZErrorBody } from '../../../shared/contract/errors.js';
import { clearSessionCookie, requireUser, sessionToken, setSessionCookie } from '../../plugins/session.js';
import type { App, AppDeps } from '../../types.js';
import { openSession, SESSION_ABSOLUTE_MS, signin, signout, signup, toSessionUser } from './service.js';

// The server enforces the sliding idle timeout; the browser keeps the cookie for the absolute lifetime, so
// an active user is not signed out when the idle period counted from sign-in runs out.
const cookieMaxAge = Math.floor(SESSION_ABSOLUTE_MS / 1000);

export async function authRoutes(app: App, deps: AppDeps): Promise<void> {
  app.post(
    '/signup',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account (with the sign-up bonus) and sign in',
        body: ZSignupRequest,
        response: { 201: ZSessionUser, 400: ZErrorBody, 409: ZErrorBody },
      },
    },
    async (request, reply) => {
      const profile = await signup(deps.db, request.body);
      const token = await openSession(deps.db, profile.id, deps.now());
      setSessionCookie(reply, deps, token, cookieMaxAge);
      return reply.status(201).send(toSessionUser(profile));
    },
  );

  app.post(
    '/signin',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        body: ZSigninRequest,
        response: { 200: ZSessionUser, 400: ZErrorBody, 401: ZErrorBody, 403: ZErrorBody, 429: ZErrorBody },
      },
    },
    async (request, reply) => {
      const { token, user } = await signin(deps.db, request.body, request.ip, deps.now());
      setSessionCookie(reply, deps, token, cookieMaxAge);
      return user;
    },
  );

  app.post(
    '/signout',
    { schema: { tags: ['auth'], summary: 'End the current session', response: { 200: ZOk } } },
    async (request, reply) => {
      const token = sessionToken(request, deps);
      if (token) await signout(deps.db, token);
      clearSessionCookie(reply, deps);
      return { ok: true as const };
    },
  );

  app.get(
    '/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        response: { 200: ZSessionUser, 401: ZErrorBody },
      },
    },
    async (request) => requireUser(request),
  );
}
