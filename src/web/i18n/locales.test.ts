import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_TEXTS } from '#shared/i18n/errors';
import { LEDGER_NOTE_TEXTS } from '#shared/i18n/ledger-notes';
import { PAGE_TEXTS } from '#shared/i18n/pages';

const dir = join(import.meta.dirname, 'locales');
const flat = (o: Record<string, unknown>, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' ? flat(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
const load = (lng: string, file: string) =>
  flat(JSON.parse(readFileSync(join(dir, lng, file), 'utf8')) as Record<string, unknown>).sort();

describe('translations', () => {
  const files = readdirSync(join(dir, 'en'));
  it('have the same namespaces in both languages', () => {
    expect(readdirSync(join(dir, 'es')).sort()).toEqual(files.sort());
  });
  it.each(files)('%s has the same keys in English and Spanish', (file) => {
    expect(load('es', file)).toEqual(load('en', file));
  });
});

/** Every Spanish string the reader can meet: the web's locale files, the server's errors, the ledger notes and the pages' titles. */
function spanishTexts(): string[] {
  const texts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const file of readdirSync(join(dir, 'es')))
    walk(JSON.parse(readFileSync(join(dir, 'es', file), 'utf8')));
  walk(ERROR_TEXTS.es);
  walk(LEDGER_NOTE_TEXTS.es);
  walk(PAGE_TEXTS.es);
  return texts;
}

describe('the Spanish glossary', () => {
  // The product calls its workflows "workflows" in Spanish too (the catalogue, "Mis workflows"); a text that
  // says "flujo de trabajo" reads as if it meant something else.
  it('says "workflow", never "flujo de trabajo"', () => {
    expect(spanishTexts().filter((t) => /flujos? de trabajo/i.test(t))).toEqual([]);
  });
});
