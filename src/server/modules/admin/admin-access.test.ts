import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpUser, TestClient } from '#server/test/client.js';
import { buildTestApp, type TestApp } from '#server/test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

interface RouteEntry {
  method: string;
  url: string;
}

/** Every registered route, read from Fastify's own route tree (each line's segment joins its parent's). */
function registeredRoutes(tree: string): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const pathAtDepth: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^(.*?)(?:├── |└── )(.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = Math.round((match[1] ?? '').length / 4);
    const path = (depth > 0 ? (pathAtDepth[depth - 1] ?? '') : '') + (match[2] ?? '');
    pathAtDepth[depth] = path;
    pathAtDepth.length = depth + 1;
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method && method !== 'HEAD') routes.push({ method, url: path });
    }
  }
  return routes;
}

const SOME_ID = '00000000-0000-4000-8000-000000000000';

/** A request that would pass validation, so the refusal can only come from the guard. */
function validLooking(route: RouteEntry): { url: string; body?: unknown } {
  const url = route.url.replace(/:[A-Za-z]+/g, SOME_ID);
  if (route.method === 'GET' || route.method === 'DELETE') return { url };
  if (url.endsWith('/adjust-credits')) return { url, body: { userId: SOME_ID, amount: 5, reason: 'gift' } };
  if (url.includes('/users/')) return { url, body: { accountStatus: 'suspended' } };
  if (url.includes('/config/')) return { url, body: { value: 7 } };
  if (url.endsWith('/translate')) return { url, body: { text: 'Hola', targetLanguage: 'en' } };
  if (route.method === 'PATCH') return { url, body: { isActive: false } };
  return { url, body: {} };
}

describe('admin routes are for admins only', () => {
  const guarded = () =>
    registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter(
      (r) => r.url.startsWith('/api/admin/') || (r.method === 'DELETE' && r.url === '/api/workflows/:id'),
    );

  it('finds the admin routes in the app', () => {
    const names = guarded().map((r) => `${r.method} ${r.url}`);
    // A sample the panel cannot do without; the check below covers every route found, these included.
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /api/admin/stats',
        'GET /api/admin/users',
        'PATCH /api/admin/users/:id',
        'POST /api/admin/users/adjust-credits',
        'POST /api/admin/workflows',
        'PATCH /api/admin/workflows/:id',
        'GET /api/admin/workflows/:id/secret',
        'POST /api/admin/workflows/:id/rotate-secret',
        'GET /api/admin/config',
        'PATCH /api/admin/config/:id',
        'GET /api/admin/audit',
        'DELETE /api/workflows/:id',
      ]),
    );
  });

  it('answers 401 to a visitor and 403 to a signed-in user on every one of them', async () => {
    const { client: user } = await signUpUser(t);
    const anonymous = new TestClient(t);
    const routes = guarded();
    expect(routes.length).toBeGreaterThanOrEqual(16);
    for (const route of routes) {
      const { url, body } = validLooking(route);
      const method = route.method as 'GET' | 'POST' | 'PATCH' | 'DELETE';
      const anon = await anonymous.request(method, url, body);
      expect({ route: `${method} ${url}`, status: anon.statusCode, code: anon.json().code }).toEqual({
        route: `${method} ${url}`,
        status: 401,
        code: 'UNAUTHENTICATED',
      });
      const signedIn = await user.request(method, url, body);
      expect({ route: `${method} ${url}`, status: signedIn.statusCode, code: signedIn.json().code }).toEqual({
        route: `${method} ${url}`,
        status: 403,
        code: 'FORBIDDEN',
      });
    }
  });
});
