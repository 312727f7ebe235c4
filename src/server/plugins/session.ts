import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSessionUser } from '#shared/contract/auth.js';
import { deviceSeen, type DeviceSeen } from '../lib/device.js';
import { forbidden, unauthenticated } from '../lib/errors.js';
import { trustedPeer } from '../lib/trusted-proxy.js';
import { findSession, type SessionRecord } from '../modules/auth/service.js';
import type { App, AppDeps } from '../types.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session behind the request's cookie, looked up once and only when asked for. */
    session(): Promise<SessionRecord | null>;
    /** The device and place the request comes from, as a session remembers them. */
    device(): DeviceSeen;
  }
}

interface CookieSettings {
  name: string;
  secure: boolean;
}

export function cookieSettings(deps: AppDeps): CookieSettings {
  const secure = deps.config.publicUrl.startsWith('https://');
  // The __Host- prefix binds the cookie to this exact host, which browsers allow only with Secure.
  return { name: secure ? '__Host-flujo_session' : 'flujo_session', secure };
}

/**
 * Cookies are parsed only when a request asks for its session (the cookie plugin's per-request parsing is
 * off): the catalogue, the SPA's files and the callbacks never need them.
 */
function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  return header ? request.server.parseCookie(header)[name] : undefined;
}

export function registerSession(app: App, deps: AppDeps): void {
  const { name } = cookieSettings(deps);
  const trusted = trustedPeer(deps.config.trustProxy);
  app.decorateRequest('device', function (this: FastifyRequest) {
    return deviceSeen(this.headers, this.ip, trusted(this.socket.remoteAddress));
  });
  app.decorateRequest('session', function (this: FastifyRequest) {
    const cache = this as FastifyRequest & { _session?: Promise<SessionRecord | null> };
    if (!cache._session) {
      const token = cookieValue(this, name);
      cache._session = token
        ? findSession(deps.db, token, deps.now(), () => this.device())
        : Promise.resolve(null);
    }
    return cache._session;
  });
}

export function setSessionCookie(
  reply: FastifyReply,
  deps: AppDeps,
  token: string,
  maxAgeSeconds: number,
): void {
  const { name, secure } = cookieSettings(deps);
  void reply.setCookie(name, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, deps: AppDeps): void {
  const { name, secure } = cookieSettings(deps);
  void reply.clearCookie(name, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
}

export function sessionToken(request: FastifyRequest, deps: AppDeps): string | undefined {
  return cookieValue(request, cookieSettings(deps).name);
}

/** The request's session (its user and its id), or 401. */
export async function requireSession(request: FastifyRequest): Promise<SessionRecord> {
  const session = await request.session();
  if (!session) throw unauthenticated();
  return session;
}

export async function requireUser(request: FastifyRequest): Promise<TSessionUser> {
  return (await requireSession(request)).user;
}

export async function requireAdmin(request: FastifyRequest): Promise<TSessionUser> {
  const user = await requireUser(request);
  if (!user.isAdmin) throw forbidden('adminsOnly');
  return user;
}
