import type { FastifyRequest } from 'fastify';
import type { TLanguage } from '#shared/contract/common.js';

/** A language as the LLM is told to write in it (chat replies, translations). */
export const LANGUAGE_NAME: Record<TLanguage, string> = { en: 'English', es: 'Spanish (español)' };

/**
 * The caller's language when no profile says it: the web app's `lng` cookie, then Accept-Language, then
 * English. Any Spanish variant counts as Spanish.
 */
export function requestLanguage(request: FastifyRequest): TLanguage {
  const cookieHeader = request.headers.cookie;
  if (cookieHeader) {
    const lng = request.server.parseCookie(cookieHeader).lng;
    if (lng?.toLowerCase().startsWith('es')) return 'es';
    if (lng?.toLowerCase().startsWith('en')) return 'en';
  }
  const accept = request.headers['accept-language'];
  if (typeof accept === 'string') {
    const ranked = accept
      .split(',')
      .map((part) => {
        const [tag = '', ...params] = part.trim().split(';');
        const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
        return { tag: tag.toLowerCase(), q: q === undefined ? 1 : Number(q) };
      })
      .filter((r) => r.q > 0)
      .sort((a, b) => b.q - a.q);
    for (const { tag } of ranked) {
      if (tag.startsWith('es')) return 'es';
      if (tag.startsWith('en')) return 'en';
    }
  }
  return 'en';
}
