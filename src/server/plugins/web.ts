import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addVary, compressOnce, negotiateEncoding, type Encoding } from '../lib/content-encoding.js';
import type { App, AppDeps } from '../types.js';
import { cookieSettings } from './session.js';
import { SWAGGER_UI_BUILD_FOLDER } from './swagger-ui-files.js';
import {
  etagOf,
  pageLanguage,
  renderPage,
  robotsTxt,
  sitemapXml,
  variantKey,
  type BuildManifest,
  type PageRequest,
} from './web-page.js';

interface RenderedPage {
  bodies: Record<Encoding | 'identity', Buffer>;
  tag: string;
}

/**
 * Serves the built web app in `webDir` (config.webDir), with index.html for every path the app routes itself.
 * The build writes a .br and a .gz beside each text file (scripts/precompress.mjs); the one the client's
 * Accept-Encoding prefers is sent (brotli, then gzip, else the file itself), with `Vary: Accept-Encoding`.
 * index.html gets each address's head first (web-page.ts); its few variants are compressed once and kept.
 */
export async function registerWeb(app: App, deps: AppDeps): Promise<void> {
  const { publicUrl } = deps.config;
  const root = resolve(deps.config.webDir);
  const built = existsSync(`${root}/index.html`);
  const sessionCookie = cookieSettings(deps).name;

  const robots = robotsTxt(publicUrl);
  const sitemap = sitemapXml(publicUrl);
  app.get('/robots.txt', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robots),
  );
  app.get('/sitemap.xml', { schema: { hide: true } }, (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(sitemap),
  );

  const template = built ? readFileSync(`${root}/index.html`, 'utf8') : '';
  const manifestFile = `${root}/.vite/manifest.json`;
  const manifest = existsSync(manifestFile)
    ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as BuildManifest)
    : {};
  const rendered = new Map<string, Promise<RenderedPage>>();
  const renderOnce = (page: PageRequest): Promise<RenderedPage> => {
    const key = variantKey(page);
    let found = rendered.get(key);
    if (!found) {
      const body = Buffer.from(renderPage(template, publicUrl, page, manifest));
      found = compressOnce(body).then((coded) => ({
        bodies: { ...coded, identity: body },
        tag: etagOf(key + body.toString()),
      }));
      rendered.set(key, found);
    }
    return found;
  };
  const sendPage = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const { language, fromAddress } = pageLanguage(request);
    const cookies = request.headers.cookie;
    const page: PageRequest = {
      path,
      language,
      fromAddress,
      sessionCookie: Boolean(cookies && request.server.parseCookie(cookies)[sessionCookie]),
    };
    const { bodies, tag } = await renderOnce(page);
    const encoding = negotiateEncoding(request.headers['accept-encoding']) ?? 'identity';
    const etag = `"${tag}-${encoding}"`;
    // The head depends on the language (cookie, Accept-Language) and on the session cookie: never shared.
    void reply
      .header('cache-control', 'no-cache, private')
      .header('etag', etag)
      .type('text/html; charset=utf-8');
    addVary(reply, 'Accept-Encoding');
    addVary(reply, 'Accept-Language');
    addVary(reply, 'Cookie');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    if (encoding !== 'identity') void reply.header('content-encoding', encoding);
    return reply.send(bodies[encoding]);
  };
  if (built) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      preCompressed: true,
      // The compressed copies are chosen by negotiation, never asked for by name. The API docs page's files
      // are served at its own address (docs.ts).
      // index.html is written per address (sendPage); the build manifest is read by the server, not served.
      globIgnore: ['**/*.br', '**/*.gz', 'index.html', '.vite/**', `${SWAGGER_UI_BUILD_FOLDER}/**`],
      setHeaders(reply, path) {
        const file = relative(root, path).split(sep).join('/');
        if (file.startsWith('assets/')) {
          // Vite puts a content hash in every asset name: the name is the version, so the file is cached for
          // good and a validator would never be used (about 0.1 kB less on each file).
          void reply
            .header('cache-control', 'public, max-age=31536000, immutable')
            .removeHeader('etag')
            .removeHeader('last-modified');
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
      return reply
        .status(404)
        .send({ error: `No route ${request.method} ${path}`, code: 'NOT_FOUND', key: 'default' });
    }
    if (path.startsWith('/assets/')) {
      return reply.status(404).send({ error: 'Not found', code: 'NOT_FOUND', key: 'default' });
    }
    if (!built) {
      return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    return sendPage(request, reply, path);
  });
}
