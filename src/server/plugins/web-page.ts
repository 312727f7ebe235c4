import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { TLanguage } from '#shared/contract/common.js';
import { PAGE_TEXTS, PUBLIC_PAGES, pageTitle } from '#shared/i18n/pages.js';
import { requestLanguage } from '../lib/language.js';

/**
 * The head of the web app's page, written by the server for each address before any script runs: the
 * language, the title and description, the addresses of the page in each language (decision 135: a public page
 * is `path?lng=es` in Spanish and `path?lng=en` in English; `path` alone picks the reader's language), the
 * sharing card, and whether the request carried a session cookie (so that a visitor's page never asks for a
 * session it does not have).
 */

const LANGUAGES: readonly TLanguage[] = ['es', 'en'];
const OG_LOCALE: Record<TLanguage, string> = { es: 'es_ES', en: 'en_US' };

/** The language a page is written in: the `lng` of its address, else the `lng` cookie, else Accept-Language. */
export function pageLanguage(request: FastifyRequest): { language: TLanguage; fromAddress: boolean } {
  const lng = (request.query as Record<string, unknown> | undefined)?.lng;
  if (typeof lng === 'string') {
    const tag = lng.toLowerCase();
    if (tag.startsWith('es')) return { language: 'es', fromAddress: true };
    if (tag.startsWith('en')) return { language: 'en', fromAddress: true };
  }
  return { language: requestLanguage(request), fromAddress: false };
}

/** The public page at this path, if any (a trailing slash names the same page). */
function publicPage(path: string): (typeof PUBLIC_PAGES)[number] | undefined {
  const normal = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return PUBLIC_PAGES.find((p) => p.path === normal);
}

/** A public page's address in one language, or its address that lets the reader's language choose. */
function pageAddress(publicUrl: string, path: string, language?: TLanguage): string {
  return `${publicUrl}${path}${language ? `?lng=${language}` : ''}`;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Vite's build manifest (`build.manifest`): each source module's file and the chunks it imports statically. */
export type BuildManifest = Record<string, { file: string; imports?: string[] }>;

/**
 * What a public screen loads after the first bundle, keyed as in the manifest (paths below src/web): its lazy
 * chunk and its translation namespaces. Announced in the head as modulepreload, they load beside the first
 * bundle instead of after it has run (the catalogue's largest paint came a round trip later without).
 */
export const SCREEN_CHUNKS: Record<string, { module: string; namespaces: string[] }> = {
  '/workflows': { module: 'features/catalogue/catalogue-page.tsx', namespaces: ['catalogue', 'reviews'] },
};

/** The files to preload for a public page in a language: its chunks and what they import, once each. */
function screenPreloads(manifest: BuildManifest, path: string, language: TLanguage): string[] {
  const screen = SCREEN_CHUNKS[path];
  if (!screen) return [];
  const files = new Set<string>();
  const visit = (key: string) => {
    const entry = manifest[key];
    if (!entry || files.has(entry.file)) return;
    files.add(entry.file);
    entry.imports?.forEach(visit);
  };
  visit(screen.module);
  for (const ns of screen.namespaces) visit(`i18n/locales/${language}/${ns}.json`);
  return [...files];
}

export interface PageRequest {
  path: string;
  language: TLanguage;
  /** Whether the address itself named the language (then the canonical address names it too). */
  fromAddress: boolean;
  /** Whether the request carried a session cookie (not whether the session is valid: the page asks that). */
  sessionCookie: boolean;
}

/** The built index.html with this page's head. */
export function renderPage(
  template: string,
  publicUrl: string,
  page: PageRequest,
  manifest: BuildManifest = {},
): string {
  const found = publicPage(page.path);
  const texts = PAGE_TEXTS[page.language];
  const tags: string[] = [];
  const meta = (attr: 'name' | 'property', key: string, content: string) =>
    tags.push(`<meta ${attr}="${key}" content="${escapeHtml(content)}">`);
  if (found) {
    const title = pageTitle(page.language, found.key);
    const description = texts.descriptions[found.key];
    const url = pageAddress(publicUrl, found.path, page.fromAddress ? page.language : undefined);
    tags.push(`<title>${escapeHtml(title)}</title>`);
    meta('name', 'description', description);
    tags.push(`<link rel="canonical" href="${escapeHtml(url)}">`);
    for (const lng of LANGUAGES) {
      tags.push(
        `<link rel="alternate" hreflang="${lng}" href="${escapeHtml(pageAddress(publicUrl, found.path, lng))}">`,
      );
    }
    tags.push(
      `<link rel="alternate" hreflang="x-default" href="${escapeHtml(pageAddress(publicUrl, found.path))}">`,
    );
    meta('property', 'og:type', 'website');
    meta('property', 'og:site_name', texts.brand);
    meta('property', 'og:title', title);
    meta('property', 'og:description', description);
    meta('property', 'og:url', url);
    meta('property', 'og:locale', OG_LOCALE[page.language]);
    for (const lng of LANGUAGES)
      if (lng !== page.language) meta('property', 'og:locale:alternate', OG_LOCALE[lng]);
    meta('name', 'twitter:card', 'summary');
    for (const file of screenPreloads(manifest, found.path, page.language)) {
      // The first bundle is in the page already.
      if (!template.includes(`/${file}"`))
        tags.push(`<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">`);
    }
  } else {
    // The screens behind a sign-in, the mailed links' screens and unknown addresses: the app names the tab
    // once it knows the screen, and no index lists them.
    tags.push(`<title>${escapeHtml(texts.brand)}</title>`);
    meta('name', 'robots', 'noindex');
  }
  meta('name', 'flujo-session', page.sessionCookie ? 'cookie' : 'none');
  return template
    .replace(/<html\b[^>]*>/i, `<html lang="${page.language}">`)
    .replace(/<meta\s+name="description"[^>]*>\s*/i, '')
    .replace(/<title>[^<]*<\/title>/i, tags.join('\n    '));
}

/** The address's variant of the page, as a cache key: every public page has few, every other path shares one. */
export function variantKey(page: PageRequest): string {
  const found = publicPage(page.path);
  return [found?.path ?? '*', page.language, found && page.fromAddress, page.sessionCookie].join('|');
}

export const etagOf = (body: string) => createHash('sha256').update(body).digest('base64url').slice(0, 22);

/** robots.txt: everything but the API may be crawled; the sitemap names the public pages. */
export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Disallow: /api/',
    'Disallow: /result/',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

/** sitemap.xml: each public page in each language, with its alternates (both languages and x-default). */
export function sitemapXml(publicUrl: string): string {
  const link = (hreflang: string, href: string) =>
    `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${escapeHtml(href)}"/>`;
  const urls = PUBLIC_PAGES.flatMap((page) =>
    LANGUAGES.map((lng) =>
      [
        '  <url>',
        `    <loc>${escapeHtml(pageAddress(publicUrl, page.path, lng))}</loc>`,
        ...LANGUAGES.map((other) => link(other, pageAddress(publicUrl, page.path, other))),
        link('x-default', pageAddress(publicUrl, page.path)),
        '  </url>',
      ].join('\n'),
    ),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}
