import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../contract/errors.js';
import { ERROR_TEXTS, errorText, interpolate } from './errors.js';

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const codes = Object.keys(ERROR_STATUS) as ErrorCode[];

describe('error texts', () => {
  it('has a default text for every error code, in both languages', () => {
    for (const language of ['en', 'es'] as const) {
      for (const code of codes) {
        expect(ERROR_TEXTS[language][code].default, `${language} ${code}`).toMatch(/\S/);
      }
    }
  });

  it('has every key of one language in the other, with the same placeholders and no blank text', () => {
    for (const code of codes) {
      const en = ERROR_TEXTS.en[code] as Record<string, string>;
      const es = ERROR_TEXTS.es[code] as Record<string, string>;
      expect(Object.keys(es).sort(), code).toEqual(Object.keys(en).sort());
      for (const key of Object.keys(en)) {
        expect(es[key], `${code}.${key}`).toMatch(/\S/);
        expect(placeholders(es[key] ?? ''), `${code}.${key}`).toEqual(placeholders(en[key] ?? ''));
      }
    }
  });

  it('fills the params a text names', () => {
    expect(errorText('es', 'CONFLICT', 'chatLimit', { max: 20 })).toBe(
      'Esta conversación ha alcanzado su límite de 20 mensajes',
    );
    expect(errorText('en', 'CONFLICT', 'chatLimit', { max: 20 })).toBe(
      'This conversation has reached its limit of 20 messages',
    );
    expect(interpolate('a {{missing}} b', {})).toBe('a {{missing}} b');
  });
});
