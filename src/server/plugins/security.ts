import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import type { App, AppDeps } from '../types.js';

/** Calls signed by outside services instead of carrying a browser session. */
const CSRF_EXEMPT = ['/api/workflow-result', '/api/payments/stripe/webhook', '/demo-hooks/'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originAllowed(request: FastifyRequest, deps: AppDeps): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  if (!origin) return false;
  const host = request.headers.host;
  return (
    origin === deps.config.publicUrl ||
    (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`))
  );
}

/**
 * The security headers every answer carries (those helmet would set, with our CSP), built once: they depend
 * only on the configuration, and building them per request was a measurable share of the catalogue's CPU.
 * A route may still replace one (result files send their own sandbox CSP).
 */
export function securityHeaders(https: boolean): Readonly<Record<string, string>> {
  const csp: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    // Radix positions popovers with inline styles.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'media-src': ["'self'", 'https:'],
    'connect-src': ["'self'"],
    'font-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'", 'https://checkout.stripe.com'],
    'frame-ancestors': ["'none'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
  return Object.freeze({
    'content-security-policy': Object.entries(csp)
      .map(([directive, sources]) => [directive, ...sources].join(' '))
      .join('; '),
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    // The old XSS auditors did more harm than good; 0 turns them off where they still exist.
    'x-xss-protection': '0',
  });
}

export function registerSecurity(app: App, deps: AppDeps): void {
  const headers = securityHeaders(deps.config.publicUrl.startsWith('https://'));

  // JSON is the only body the API reads. Fastify's built-in text/plain parser would hand a string to the
  // route's schema (a 400); without it such a body is refused as 415, like every other type. text/plain is
  // also one of the types a cross-site form can send without a preflight.
  app.removeContentTypeParser('text/plain');

  // The headers and the CSRF check share one callback-style hook, since it runs on every request.
  // CSRF: a state-changing request must come from our own pages (SameSite=Lax alone lets top-level POSTs by).
  // The decision follows the route the request reached, not its raw URL: `/%61pi/...` is routed to `/api/...`
  // but does not start with "/api/". Every state-changing request is checked, whatever its path.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(headers);
    if (SAFE_METHODS.has(request.method)) return done();
    const route = request.routeOptions.url;
    if (route !== undefined && CSRF_EXEMPT.some((p) => route.startsWith(p))) return done();
    if (!originAllowed(request, deps)) return done(new AppError('FORBIDDEN', 'Cross-site request refused'));
    done();
  });
}
