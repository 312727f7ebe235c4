import { describe, expect, it } from 'vitest';
import { parseCsv, summariseCsv } from './csv-summary.js';

describe('the CSV summary demo', () => {
  it('reads quoted fields, doubled quotes, semicolons and CRLF', () => {
    expect(parseCsv('name;note\r\n"Pérez, Ana";"said ""hi"""\r\n\r\nLuis;ok')).toEqual([
      ['name', 'note'],
      ['Pérez, Ana', 'said "hi"'],
      ['Luis', 'ok'],
    ]);
  });

  it('summarises in Spanish with decimal commas, and shows the last rows when asked', () => {
    const summary = summariseCsv('ciudad;importe\nLima;10,5\nQuito;4\n', 'es', ['Últimas filas']);
    expect(summary).toContain('2 filas y 2 columnas.');
    expect(summary).toContain('- **importe**: total 14,5, media 7,25, de 4 a 10,5');
    expect(summary).toContain('- **ciudad**: 2 valores distintos');
    expect(summary).toContain('### Últimas filas');
    expect(summary).not.toContain('### Primeras filas');
  });

  it('says so when the file has no rows', () => {
    expect(summariseCsv('only,a,header\n', 'en')).toBe('The file has no rows.');
  });
});
