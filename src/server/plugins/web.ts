import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { App } from '../types.js';

// src/server and dist/server sit at the same depth, so this finds the built app from either.
// WEB_DIR lets parallel development checkouts serve their own builds; it is not a production setting.
export const WEB_ROOT = process.env.WEB_DIR ?? fileURLToPath(new URL('../../../dist/web', import.meta.url));

/** Serves the built web app, with index.html for every path the app routes itself. */
export async function registerWeb(app: App): Promise<void> {
  const built = existsSync(`${WEB_ROOT}/index.html`);
  if (built) {
    await app.register(fastifyStatic, {
      root: WEB_ROOT,
      wildcard: false,
      index: false,
      setHeaders(res, path) {
        // Vite puts a content hash in every asset name: cache those forever, never index.html.
        res.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const isApi =
      path.startsWith('/api/') ||
      path === '/api' ||
      path.startsWith('/result/') ||
      path.startsWith('/demo-hooks/');
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ error: `No route ${request.method} ${path}`, code: 'NOT_FOUND' });
    }
    if (path.startsWith('/assets/')) {
      return reply.status(404).send({ error: 'Not found', code: 'NOT_FOUND' });
    }
    if (!built) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
