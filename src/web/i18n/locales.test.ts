import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

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
