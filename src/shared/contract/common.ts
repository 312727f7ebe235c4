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

// In a module without zod, so that screens showing bilingual text need not load zod for it.
export { pickLanguage } from './pick-language.js';

export const ZUuid = z.uuid();
export const ZIdParams = z.object({ id: ZUuid });

/** A user or admin as a list row refers to them. */
export const ZUserRef = z.object({ id: z.uuid(), email: z.string() });

export const ZOk = z.object({ ok: z.literal(true) });
