import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import type { App, AppDeps } from '../types.js';

/** The host name a request names (`Host`, or `X-Forwarded-Host` from a trusted proxy), lowercased; null if bad. */
function hostnameOf(request: FastifyRequest): string | null {
  try {
    return new URL(`http://${request.host}`).hostname;
  } catch {
    return null;
  }
}

/**
 * DNS-rebinding protection for /mcp (MCP transports, "Security warning"): a page on a foreign site whose
 * name resolves to this server sends its own `Host`, and a browser adds its `Origin`. Refused with 403 before
 * anything else is read, the key included, so such a page learns nothing. The host name is compared without
 * its port: a rebinding changes the name, and a proxy in front serves another port than the app's.
 */
export function registerMcpHostCheck(scope: App, deps: AppDeps): void {
  const { origins, hostnames } = deps.config.mcpAccess;
  scope.addHook('onRequest', (request, _reply, done) => {
    const hostname = hostnameOf(request);
    if (hostname === null || !hostnames.includes(hostname)) {
      return done(new AppError('FORBIDDEN', 'mcpForeignHost'));
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.includes(origin)) {
      return done(new AppError('FORBIDDEN', 'mcpForeignOrigin'));
    }
    done();
  });
}
