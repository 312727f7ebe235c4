import { z } from 'zod';
import { ZLanguage } from './common.js';

/** An admin's "translate" button on the workflow form: fills one language from the other. */
export const ZTranslateRequest = z.object({
  text: z.string().trim().min(1, 'No text to translate').max(20_000),
  targetLanguage: ZLanguage,
});
export type TTranslateRequest = z.infer<typeof ZTranslateRequest>;

export const ZTranslateResponse = z.object({ translation: z.string() });
