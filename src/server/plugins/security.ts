import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.js';
import type { App, AppDeps } from '../types.js';

/**
 * Calls signed by outside services instead of carrying a browser session, and the API-key routes: they read
 * only `Authorization: Bearer`, never the cookie, so a cross-site request gains nothing there.
 */
const CSRF_EXEMPT = [
  '/api/workflow-result',
  '/api/payments/stripe/webhook',
  '/demo-hooks/',
  '/api/v1/',
  '/mcp',
  // The OAuth endpoints (token, registration, revocation) are called by apps, never with our session cookie.
  '/oauth/',
];
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

export interface SecurityHeaders {
  /** For documents: the web app's pages, its other files and the API docs. */
  document: Readonly<Record<string, string>>;
  /** For API answers (JSON, never rendered as a page). */
  api: Readonly<Record<string, string>>;
  /** For the built scripts and style sheets under /assets/ (never rendered as a page either). */
  script: Readonly<Record<string, string>>;
}

/**
 * The security headers, built once: they depend only on the configuration, and building them per request
 * was a measurable share of the catalogue's CPU. Documents get what helmet would set, with our CSP. An API
 * answer gets only the headers that act on a JSON response (OWASP's REST guidance): a CSP under which the
 * answer, opened as a page, can load and run nothing and cannot be framed; nosniff; same-origin reads only;
 * and HSTS over https. The others (COOP, origin-agent-cluster, DNS prefetch, download options...) only act on
 * documents, and sending them on every API answer cost the catalogue's hot path about as much as its log line.
 * A route may still replace one (result files send their own sandbox CSP).
 */
export function securityHeaders(https: boolean): SecurityHeaders {
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
  const hsts: Record<string, string> = https
    ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
    : {};
  return {
    document: Object.freeze({
      'content-security-policy': Object.entries(csp)
        .map(([directive, sources]) => [directive, ...sources].join(' '))
        .join('; '),
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'strict-origin-when-cross-origin',
      ...hsts,
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      // The old XSS auditors did more harm than good; 0 turns them off where they still exist.
      'x-xss-protection': '0',
    }),
    api: Object.freeze({
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'cross-origin-resource-policy': 'same-origin',
      ...hsts,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    }),
    // A script or style sheet is not a document: a CSP, framing or opener policy sent with it is ignored, and
    // those headers cost about 0.7 kB on each of the dozen-odd files of a first visit. What acts on it stays.
    script: Object.freeze({
      'cross-origin-resource-policy': 'same-origin',
      ...hsts,
      'x-content-type-options': 'nosniff',
    }),
  };
}

const SCRIPT_OR_STYLE = /^\/assets\/[^?]*\.(?:js|css)$/;

/** Which header set a request gets, by the route it reached (or its path when it reached none). */
function headersFor(request: FastifyRequest, headers: SecurityHeaders): Readonly<Record<string, string>> {
  const path = request.routeOptions.url ?? request.url;
  if (path.startsWith('/api/')) return path.startsWith('/api/docs') ? headers.document : headers.api;
  return SCRIPT_OR_STYLE.test(path) ? headers.script : headers.document;
}

export function registerSecurity(app: App, deps: AppDeps, headers: SecurityHeaders): void {
  // JSON is the only body the API reads. Fastify's built-in text/plain parser would hand a string to the
  // route's schema (a 400); without it such a body is refused as 415, like every other type. text/plain is
  // also one of the types a cross-site form can send without a preflight.
  app.removeContentTypeParser('text/plain');

  // The headers and the CSRF check share one callback-style hook, since it runs on every request.
  // CSRF: a state-changing request must come from our own pages (SameSite=Lax alone lets top-level POSTs by).
  // The decision follows the route the request reached, not its raw URL: `/%61pi/...` is routed to `/api/...`
  // but does not start with "/api/". Every state-changing request is checked, whatever its path.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(headersFor(request, headers));
    if (SAFE_METHODS.has(request.method)) return done();
    const route = request.routeOptions.url;
    if (route !== undefined && CSRF_EXEMPT.some((p) => route.startsWith(p))) return done();
    if (!originAllowed(request, deps)) return done(new AppError('FORBIDDEN', 'crossSite'));
    done();
  });
}
