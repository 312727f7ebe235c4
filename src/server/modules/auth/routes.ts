import {
  ZPasswordResetConfirm,
  ZPasswordResetRequest,
  ZSessionUser,
  ZSigninRequest,
  ZSignupRequest,
  ZVerifyEmailRequest,
  ZVerifyEmailResponse,
} from '#shared/contract/auth.js';
import { ZOk } from '#shared/contract/common.js';
import { clearSessionCookie, requireUser, sessionToken, setSessionCookie } from '#server/plugins/session.js';
import { requestLanguage } from '#server/lib/language.js';
import type { App, AppDeps } from '#server/types.js';
import { confirmPasswordReset, requestPasswordReset, resendVerification, verifyEmail } from './recovery.js';
import { openSession, SESSION_ABSOLUTE_MS, signin, signout, signup, toSessionUser } from './service.js';
import { errorAnswers } from '#server/lib/errors.js';

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
        response: { 201: ZSessionUser, ...errorAnswers(400, 409, 429) },
      },
    },
    async (request, reply) => {
      const language = request.body.language ?? requestLanguage(request);
      const profile = await signup(deps, { ...request.body, language }, request.ip);
      const token = await openSession(deps.db, profile.id, request.device(), deps.now());
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
        response: { 200: ZSessionUser, ...errorAnswers(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const { token, user } = await signin(deps.db, request.body, request.ip, request.device(), deps.now());
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

  app.post(
    '/password-reset/request',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a password reset link (the same answer whether or not the account exists)',
        body: ZPasswordResetRequest,
        response: { 202: ZOk, ...errorAnswers(400, 429) },
      },
    },
    async (request, reply) => {
      await requestPasswordReset(deps, request.body.email, request.ip);
      return reply.status(202).send({ ok: true as const });
    },
  );

  app.post(
    '/password-reset/confirm',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password from a reset link; ends every session and signs in here',
        body: ZPasswordResetConfirm,
        response: { 200: ZSessionUser, ...errorAnswers(400, 403) },
      },
    },
    async (request, reply) => {
      const { token, user } = await confirmPasswordReset(deps, request.body, request.device());
      setSessionCookie(reply, deps, token, cookieMaxAge);
      return user;
    },
  );

  app.post(
    '/verify-email',
    {
      schema: {
        tags: ['auth'],
        summary: 'Use a verification link: verify the address, or apply the e-mail change it was sent for',
        body: ZVerifyEmailRequest,
        response: { 200: ZVerifyEmailResponse, ...errorAnswers(400, 403, 409) },
      },
    },
    async (request) => verifyEmail(deps, request.body.token),
  );

  app.post(
    '/verify-email/resend',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a new verification link to the signed-in account',
        response: { 202: ZOk, ...errorAnswers(401, 409, 429) },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      await resendVerification(deps, user.id);
      return reply.status(202).send({ ok: true as const });
    },
  );

  app.get(
    '/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        response: { 200: ZSessionUser, ...errorAnswers(401) },
      },
    },
    async (request) => requireUser(request),
  );
}
