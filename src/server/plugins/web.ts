import { existsSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { App } from '../types.js';
import { SWAGGER_UI_BUILD_FOLDER } from './swagger-ui-files.js';

/**
 * Serves the built web app in `webDir` (config.webDir), with index.html for every path the app routes itself.
 * The build writes a .br and a .gz beside each text file (scripts/precompress.mjs); the one the client's
 * Accept-Encoding prefers is sent (brotli, then gzip, else the file itself), with `Vary: Accept-Encoding`.
 */
export async function registerWeb(app: App, webDir: string): Promise<void> {
  const root = resolve(webDir);
  const built = existsSync(`${root}/index.html`);
  if (built) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The compressed copies are chosen by negotiation, never asked for by name. The API docs page's files
      // are served at its own address (docs.ts).
      globIgnore: ['**/*.br', '**/*.gz', `${SWAGGER_UI_BUILD_FOLDER}/**`],
      setHeaders(reply, path) {
        const file = relative(root, path).split(sep).join('/');
        if (file.startsWith('assets/')) {
          // Vite puts a content hash in every asset name: the name is the version, so the file is cached for
          // good and a validator would never be used (about 0.1 kB less on each file).
          void reply
            .header('cache-control', 'public, max-age=31536000, immutable')
            .removeHeader('etag')
            .removeHeader('last-modified');
        } else if (/\.html(?:\.br|\.gz)?$/.test(file)) {
          // Always revalidated: it names the current assets.
          void reply.header('cache-control', 'no-cache');
        } else {
          // Unhashed files beside it (the icon): a day, instead of a revalidation on every use.
          void reply.header('cache-control', 'public, max-age=86400');
        }
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
