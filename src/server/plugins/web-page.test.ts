import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PAGE_TEXTS } from '#shared/i18n/pages.js';
import { fromProjectRoot } from '../lib/project-root.js';
import { useTestApp } from '../test/harness.js';
import { SCREEN_CHUNKS } from './web-page.js';

// The built index.html as Vite writes it from src/web/index.html.
const webDir = mkdtempSync(join(tmpdir(), 'flujo-page-'));
mkdirSync(join(webDir, 'assets'));
writeFileSync(
  join(webDir, 'index.html'),
  `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="Flujo"
    />
    <title>Flujo</title>
    <script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`,
);
// Vite's manifest of that build: the catalogue's lazy chunk, a chunk it shares, its namespaces per language.
mkdirSync(join(webDir, '.vite'));
writeFileSync(
  join(webDir, '.vite', 'manifest.json'),
  JSON.stringify({
    'main.tsx': { file: 'assets/index-Ab12Cd34.js', isEntry: true },
    'features/catalogue/catalogue-page.tsx': {
      file: 'assets/catalogue-page-Cc11.js',
      imports: ['main.tsx', '_format-Dd22.js'],
    },
    '_format-Dd22.js': { file: 'assets/format-Dd22.js', imports: ['main.tsx'] },
    'i18n/locales/es/catalogue.json': { file: 'assets/catalogue-Es01.js' },
    'i18n/locales/en/catalogue.json': { file: 'assets/catalogue-En01.js' },
    'i18n/locales/es/reviews.json': { file: 'assets/reviews-Es01.js' },
    'i18n/locales/en/reviews.json': { file: 'assets/reviews-En01.js' },
  }),
);
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

const PUBLIC_URL = 'https://flujo.example';
const t = useTestApp({ WEB_DIR: webDir, PUBLIC_URL });

async function page(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  const html = res.body;
  const attr = (selector: RegExp) => selector.exec(html)?.[1];
  return {
    res,
    html,
    lang: attr(/<html lang="([^"]*)">/),
    title: attr(/<title>([^<]*)<\/title>/),
    description: attr(/<meta name="description" content="([^"]*)">/),
    canonical: attr(/<link rel="canonical" href="([^"]*)">/),
    alternates: Object.fromEntries(
      [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map((m) => [
        m[1],
        m[2],
      ]),
    ),
    og: Object.fromEntries(
      [...html.matchAll(/<meta property="(og:[^"]+)" content="([^"]*)">/g)].map((m) => [m[1], m[2]]),
    ),
    session: attr(/<meta name="flujo-session" content="([^"]*)">/),
    robots: attr(/<meta name="robots" content="([^"]*)">/),
  };
}

describe("the page's head, written by the server", () => {
  it('is in the language of the address, with its title, description and sharing card', async () => {
    const es = await page('/workflows?lng=es');
    expect(es.lang).toBe('es');
    expect(es.title).toBe('Catálogo de workflows · Flujo');
    expect(es.description).toBe(PAGE_TEXTS.es.descriptions.catalogue);
    expect(es.canonical).toBe(`${PUBLIC_URL}/workflows?lng=es`);
    expect(es.og).toMatchObject({
      'og:title': 'Catálogo de workflows · Flujo',
      'og:description': PAGE_TEXTS.es.descriptions.catalogue,
      'og:url': `${PUBLIC_URL}/workflows?lng=es`,
      'og:locale': 'es_ES',
      'og:locale:alternate': 'en_US',
      'og:type': 'website',
    });
    const en = await page('/workflows?lng=en', { cookie: 'lng=es', 'accept-language': 'es-ES' });
    expect(en.lang).toBe('en');
    expect(en.title).toBe('Workflow catalogue · Flujo');
    // One description, the page's own; the built one is replaced.
    expect(en.html.match(/name="description"/g)).toHaveLength(1);
    expect(en.html).toContain('<script type="module" crossorigin src="/assets/index-Ab12Cd34.js"></script>');
  });

  it('names both languages and the address that lets the reader choose, on every public page', async () => {
    for (const path of ['/', '/workflows', '/signin', '/signup']) {
      const { alternates } = await page(`${path}?lng=en`);
      expect(alternates).toEqual({
        es: `${PUBLIC_URL}${path}?lng=es`,
        en: `${PUBLIC_URL}${path}?lng=en`,
        'x-default': `${PUBLIC_URL}${path}`,
      });
    }
  });

  it('follows the lng cookie, then Accept-Language, when the address names no language', async () => {
    expect((await page('/', { cookie: 'lng=es' })).lang).toBe('es');
    expect((await page('/', { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' })).lang).toBe('es');
    expect((await page('/', { 'accept-language': 'fr, en;q=0.5', cookie: 'lng=en' })).lang).toBe('en');
    const visitor = await page('/signup');
    expect(visitor.lang).toBe('en');
    expect(visitor.canonical).toBe(`${PUBLIC_URL}/signup`);
    // An unknown language in the address is no choice.
    expect((await page('/?lng=fr', { 'accept-language': 'es' })).lang).toBe('es');
  });

  it("keeps every other screen out of search indexes, in the reader's language", async () => {
    for (const path of ['/account', '/admin/users', '/reset-password', '/no-such-page']) {
      const other = await page(path, { 'accept-language': 'es' });
      expect(other.robots, path).toBe('noindex');
      expect(other.lang).toBe('es');
      expect(other.title).toBe('Flujo');
      expect(other.canonical).toBeUndefined();
      expect(other.alternates).toEqual({});
    }
  });

  it('tells the page whether a session cookie came with it, never its value', async () => {
    expect((await page('/')).session).toBe('none');
    // Over HTTPS the session cookie carries the __Host- prefix (session.ts).
    const withCookie = await page('/', { cookie: '__Host-flujo_session=secret-token-value; lng=es' });
    expect(withCookie.session).toBe('cookie');
    expect(withCookie.html).not.toContain('secret-token-value');
    // The two are different pages to a cache: each is revalidated by its own validator.
    const visitor = await page('/');
    expect(visitor.res.headers.etag).not.toBe(withCookie.res.headers.etag);
    expect(visitor.res.headers.vary).toMatch(/cookie/i);
    const again = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'if-none-match': String(visitor.res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("announces a screen's lazy chunks and its language's translations beside the first bundle", async () => {
    const preloads = (html: string) =>
      [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
    expect(preloads((await page('/workflows?lng=es')).html).sort()).toEqual(
      [
        '/assets/catalogue-page-Cc11.js',
        '/assets/format-Dd22.js',
        '/assets/catalogue-Es01.js',
        '/assets/reviews-Es01.js',
      ].sort(),
    );
    expect(preloads((await page('/workflows?lng=en')).html)).toContain('/assets/catalogue-En01.js');
    expect(preloads((await page('/signin')).html)).toEqual([]);
    // The manifest itself is not served.
    const manifest = await t.app.inject({ method: 'GET', url: '/.vite/manifest.json' });
    expect(manifest.body).not.toContain('catalogue-page-Cc11');
  });

  it("names screens the router loads lazily, by their source's path", () => {
    const router = readFileSync(fromProjectRoot('src/web/app/router.tsx'), 'utf8');
    for (const { module } of Object.values(SCREEN_CHUNKS)) {
      expect(existsSync(fromProjectRoot(`src/web/${module}`)), module).toBe(true);
      expect(router).toContain(`import('../${module.replace(/\.tsx$/, '')}')`);
    }
  });

  it('escapes what it writes into an attribute', async () => {
    const { html } = await page('/signin?lng=en&x="><script>alert(1)</script>');
    expect(html).not.toContain('<script>alert(1)</script>');
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('serves robots.txt as text, naming the sitemap and keeping crawlers off the API', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toMatch(/^User-agent: \*$/m);
    expect(res.body).toMatch(/^Disallow: \/api\/$/m);
    expect(res.body).toMatch(new RegExp(`^Sitemap: ${PUBLIC_URL}/sitemap.xml$`, 'm'));
  });

  it('lists every public page in both languages with its alternates', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.sort()).toEqual(
      ['/', '/workflows', '/signin', '/signup']
        .flatMap((p) => [`${PUBLIC_URL}${p}?lng=es`, `${PUBLIC_URL}${p}?lng=en`])
        .sort(),
    );
    const first = res.body.slice(res.body.indexOf('<url>'), res.body.indexOf('</url>'));
    expect(first).toContain(`<xhtml:link rel="alternate" hreflang="es" href="${PUBLIC_URL}/?lng=es"/>`);
    expect(first).toContain(`<xhtml:link rel="alternate" hreflang="en" href="${PUBLIC_URL}/?lng=en"/>`);
    expect(first).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${PUBLIC_URL}/"/>`);
  });
});
