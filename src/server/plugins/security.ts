import helmet from '@fastify/helmet';
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

export async function registerSecurity(app: App, deps: AppDeps): Promise<void> {
  const https = deps.config.publicUrl.startsWith('https://');
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
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
      },
    },
    hsts: https ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });

  // JSON is the only body the API reads. Fastify's built-in text/plain parser would hand a string to the
  // route's schema (a 400); without it such a body is refused as 415, like every other type. text/plain is
  // also one of the types a cross-site form can send without a preflight.
  app.removeContentTypeParser('text/plain');

  // CSRF: a state-changing request must come from our own pages (SameSite=Lax alone lets top-level POSTs by).
  // The decision follows the route the request reached, not its raw URL: `/%61pi/...` is routed to `/api/...`
  // but does not start with "/api/". Every state-changing request is checked, whatever its path.
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const route = request.routeOptions.url;
    if (route !== undefined && CSRF_EXEMPT.some((p) => route.startsWith(p))) return;
    if (!originAllowed(request, deps)) {
      throw new AppError('FORBIDDEN', 'Cross-site request refused');
    }
  });
}
