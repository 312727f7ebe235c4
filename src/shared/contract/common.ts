import { z } from 'zod';

export const LANGUAGES = ['es', 'en'] as const;
export const ZLanguage = z.enum(LANGUAGES);
export type TLanguage = z.infer<typeof ZLanguage>;

/** Text shown in both languages. */
export const ZBilingual = z.object({
  es: z.string().max(5000),
  en: z.string().max(5000),
});
export type TBilingual = z.infer<typeof ZBilingual>;

/** Display rule for bilingual text: current language, then en, then es, then empty. */
export function pickLanguage(text: Partial<TBilingual> | null | undefined, lng: string): string {
  if (!text) return '';
  const current = lng.startsWith('es') ? text.es : text.en;
  return current || text.en || text.es || '';
}

export const ZUuid = z.uuid();
export const ZIdParams = z.object({ id: ZUuid });

export const ZOk = z.object({ ok: z.literal(true) });
