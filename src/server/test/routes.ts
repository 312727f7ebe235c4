import type { App } from '../types.js';

export interface ServedRoute {
  method: string;
  /** As Fastify registered it, with ":param" segments. */
  url: string;
}

/** Paths that are not API operations: the built web app's files and the API's own documentation page. */
const NOT_OPERATIONS = [/^\/assets\//, /^\/index\.html$/, /^\/favicon\.svg$/, /^\/api\/docs/];

/**
 * Every method and path the app serves, read from Fastify's route tree (`printRoutes`), since Fastify keeps
 * no public list and hidden routes are missing from the OpenAPI document. HEAD is Fastify's automatic twin of
 * GET and is left out.
 */
export function listRoutes(app: App): ServedRoute[] {
  const segments: string[] = [];
  const routes: ServedRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const marker = line.search(/[├└]── /);
    if (marker < 0) continue;
    const depth = marker / 4;
    const rest = line.slice(marker + 4);
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(rest);
    if (!match) continue;
    segments.length = depth;
    segments.push(match[1] ?? '');
    const url = segments.join('');
    const methods = (match[2] ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    if (NOT_OPERATIONS.some((re) => re.test(url))) continue;
    for (const method of methods) if (method !== 'HEAD') routes.push({ method, url });
  }
  return routes;
}

/** One spelling for a route in tables: `GET /api/executions/:id`. */
export const routeKey = (method: string, url: string) => `${method} ${url}`;
