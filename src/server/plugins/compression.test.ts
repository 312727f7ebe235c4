import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { fromProjectRoot } from '../lib/project-root.js';
import { useTestApp } from '../test/harness.js';
import { SWAGGER_UI_BUILD_FOLDER, SWAGGER_UI_SOURCE_DIR, swaggerUiFiles } from './swagger-ui-files.js';

// A small built web app, precompressed by the same script as `npm run build`.
const webDir = mkdtempSync(join(tmpdir(), 'flujo-web-'));
mkdirSync(join(webDir, 'assets'));
const INDEX = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Flujo</title>${'<link rel="modulepreload" href="/assets/app-Ab12Cd34.js">'.repeat(8)}</head><body><div id="root"></div></body></html>`;
const APP_JS = Array.from({ length: 400 }, (_, i) => `export const value${i} = "número ${i}";`).join('\n');
const TINY_JS = 'export const x = 1;';
writeFileSync(join(webDir, 'index.html'), INDEX);
writeFileSync(join(webDir, 'assets', 'app-Ab12Cd34.js'), APP_JS);
writeFileSync(join(webDir, 'assets', 'tiny-Zz99Yy88.js'), TINY_JS);
writeFileSync(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
// The API docs page's files, as the web build copies them (vite.config.ts).
mkdirSync(join(webDir, SWAGGER_UI_BUILD_FOLDER));
for (const name of swaggerUiFiles()) {
  copyFileSync(join(SWAGGER_UI_SOURCE_DIR, name), join(webDir, SWAGGER_UI_BUILD_FOLDER, name));
}
execFileSync(process.execPath, [fromProjectRoot('scripts/precompress.mjs'), webDir]);
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

const t = useTestApp({ WEB_DIR: webDir });

function get(url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') {
  return t.app.inject({ method, url, headers });
}

function decoded(res: LightMyRequestResponse): Buffer {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.rawPayload);
  if (coding === 'gzip') return gunzipSync(res.rawPayload);
  expect(coding).toBeUndefined();
  return res.rawPayload;
}

const varies = (res: LightMyRequestResponse) =>
  String(res.headers.vary ?? '')
    .toLowerCase()
    .split(',')
    .map((s) => s.trim())
    .includes('accept-encoding');

describe('the web app: precompressed files by content negotiation', () => {
  const asset = '/assets/app-Ab12Cd34.js';

  it('writes a .br and a .gz beside each compressible file at build time, not for tiny ones', () => {
    const br = readFileSync(join(webDir, 'assets', 'app-Ab12Cd34.js.br'));
    const gz = readFileSync(join(webDir, 'assets', 'app-Ab12Cd34.js.gz'));
    expect(brotliDecompressSync(br).toString()).toBe(APP_JS);
    expect(gunzipSync(gz).toString()).toBe(APP_JS);
    expect(br.length).toBeLessThan(APP_JS.length / 3);
    expect(() => readFileSync(join(webDir, 'assets', 'tiny-Zz99Yy88.js.br'))).toThrow();
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
  ])('Accept-Encoding %j gets %s', async (accept, coding) => {
    const res = await get(asset, { 'accept-encoding': accept });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(res.rawPayload.length).toBeLessThan(APP_JS.length / 3);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(varies(res)).toBe(true);
    expect(decoded(res).toString()).toBe(APP_JS);
  });

  it.each([
    ['no Accept-Encoding', {}],
    ['identity', { 'accept-encoding': 'identity' }],
    ['br;q=0, gzip;q=0', { 'accept-encoding': 'br;q=0, gzip;q=0' }],
    ['deflate only', { 'accept-encoding': 'deflate' }],
  ])('%s gets the file itself, still with Vary', async (_label, headers) => {
    const res = await get(asset, headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(APP_JS);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(APP_JS)));
    expect(varies(res)).toBe(true);
  });

  it('gives each coding of index.html its own ETag; hashed files need none', async () => {
    const tags = await Promise.all(
      ['br', 'gzip', 'identity'].map(async (c) => (await get('/', { 'accept-encoding': c })).headers.etag),
    );
    expect(new Set(tags).size).toBe(3);
    for (const tag of tags) expect(tag).toBeDefined();
    const hashed = await get(asset, { 'accept-encoding': 'br' });
    expect(hashed.headers.etag).toBeUndefined();
    expect(hashed.headers['last-modified']).toBeUndefined();
  });

  it('revalidates index.html with its ETag, per coding', async () => {
    const first = await get('/workflows', { 'accept-encoding': 'br' });
    const again = await get('/workflows', {
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    const other = await get('/workflows', {
      'accept-encoding': 'gzip',
      'if-none-match': String(first.headers.etag),
    });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
  });

  it('answers HEAD with the headers of the coding it would send, and no body', async () => {
    const full = await get(asset, { 'accept-encoding': 'br' });
    const head = await get(asset, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.rawPayload.length).toBe(0);
  });

  it('serves a Range from the uncompressed file', async () => {
    const res = await get(asset, { 'accept-encoding': 'br, gzip', range: 'bytes=0-99' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-range']).toBe(`bytes 0-99/${Buffer.byteLength(APP_JS)}`);
    expect(res.rawPayload.equals(Buffer.from(APP_JS).subarray(0, 100))).toBe(true);
  });

  it('sends a file too small to compress as it is', async () => {
    const res = await get('/assets/tiny-Zz99Yy88.js', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(TINY_JS);
  });

  it('sends index.html compressed and never cached, for every path the app routes itself', async () => {
    for (const path of ['/', '/workflows', '/index.html']) {
      const res = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['cache-control']).toBe('no-cache, private');
      expect(varies(res)).toBe(true);
      // The page's own head (web-page.test.ts) around the built body.
      expect(decoded(res).toString()).toContain('<div id="root"></div></body></html>');
    }
    const plain = await get('/workflows');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('<div id="root"></div></body></html>');
  });

  it('sends a script only the security headers that act on a script; a page gets them all', async () => {
    const script = await get(asset, { 'accept-encoding': 'br' });
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(script.headers['content-security-policy']).toBeUndefined();
    expect(script.headers['x-frame-options']).toBeUndefined();
    const page = await get('/', { 'accept-encoding': 'br' });
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('lets the icon beside index.html be cached for a day', async () => {
    const res = await get('/favicon.svg', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
  });

  it('does not serve the compressed copies by their own names', async () => {
    const res = await get(`${asset}.br`, { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('the API docs page: its files precompressed by the build too', () => {
  const original = (name: string) => readFileSync(join(SWAGGER_UI_SOURCE_DIR, name));

  it.each([
    ['swagger-ui-bundle.js', 'br', /javascript/],
    ['swagger-ui-bundle.js', 'gzip', /javascript/],
    ['swagger-ui-standalone-preset.js', 'br', /javascript/],
    ['swagger-ui.css', 'gzip', /^text\/css/],
  ])('sends %s as %s to a client that takes it', async (name, coding, type) => {
    const res = await get(`/api/docs/static/${name}`, { 'accept-encoding': coding });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers['content-type']).toMatch(type);
    expect(varies(res)).toBe(true);
    expect(res.rawPayload.length).toBeLessThan(original(name).length / 3);
    expect(decoded(res).equals(original(name))).toBe(true);
  });

  it('sends the file itself to a client that takes no coding', async () => {
    const res = await get('/api/docs/static/swagger-ui-bundle.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(varies(res)).toBe(true);
    expect(res.rawPayload.equals(original('swagger-ui-bundle.js'))).toBe(true);
  });

  it('leaves the page and the addresses the package answers itself as they were', async () => {
    const page = await get('/api/docs/', { 'accept-encoding': 'br' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('./static/swagger-ui-bundle.js');
    const init = await get('/api/docs/static/swagger-initializer.js');
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('SwaggerUIBundle(');
    expect((await get('/api/docs/static/index.html')).statusCode).toBe(302);
    // The copies are not files of the web app.
    const copy = await get(`/${SWAGGER_UI_BUILD_FOLDER}/swagger-ui-bundle.js`);
    expect(copy.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('JSON answers', () => {
  // The OpenAPI document: a large JSON answer, the same for everyone.
  const big = '/api/docs/json';

  it.each(['br', 'gzip'])('compresses an answer over 1 kB for a client that accepts %s', async (coding) => {
    const plain = await get(big);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(varies(plain)).toBe(true);
    const res = await get(big, { 'accept-encoding': coding });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(varies(res)).toBe(true);
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(decoded(res).equals(plain.rawPayload)).toBe(true);
  });

  it('leaves an answer alone when the client refuses every coding or sends none', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
      { 'accept-encoding': 'identity' },
    ]) {
      const res = await get(big, headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(() => JSON.parse(res.body) as unknown).not.toThrow();
    }
  });

  it('answers a Range request uncompressed', async () => {
    const res = await get(big, { 'accept-encoding': 'br', range: 'bytes=0-10' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(() => JSON.parse(res.body) as unknown).not.toThrow();
  });

  it('answers HEAD with the compressed length and no body', async () => {
    const full = await get(big, { 'accept-encoding': 'br' });
    const head = await get(big, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
    expect(head.rawPayload.length).toBe(0);
  });

  it('does not compress small answers', async () => {
    for (const url of ['/healthz', '/api/auth/me', '/api/nothing-here']) {
      const res = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(varies(res)).toBe(false);
      expect(() => JSON.parse(res.body) as unknown).not.toThrow();
    }
  });
});
