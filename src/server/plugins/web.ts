import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { App } from '../types.js';

/** Serves the built web app in `webDir` (config.webDir), with index.html for every path the app routes itself. */
export async function registerWeb(app: App, webDir: string): Promise<void> {
  const built = existsSync(`${webDir}/index.html`);
  if (built) {
    await app.register(fastifyStatic, {
      root: webDir,
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
