/*
 * The CSV summary demo's reading of a file: a small CSV parser (quoted fields, doubled quotes, commas or
 * semicolons) and a Markdown summary of its columns. No packages, like the rest of the demo.
 */

const MAX_ROWS = 100_000;

/** Rows of fields; the separator is the first line's most frequent of `,` `;` and tab. */
export function parseCsv(text: string): string[][] {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.split(/\r?\n/, 1)[0] ?? '';
  const separator = [',', ';', '\t'].reduce((best, s) =>
    firstLine.split(s).length > firstLine.split(best).length ? s : best,
  );
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < body.length && rows.length < MAX_ROWS; i += 1) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === separator) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i += 1;
      row.push(field);
      if (row.some((f) => f.trim() !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f.trim() !== '')) rows.push(row);
  return rows;
}

const asNumber = (value: string): number | null => {
  const text = value.trim().replace(/\s/g, '');
  if (!/^-?\d+([.,]\d+)?$/.test(text)) return null;
  return Number(text.replace(',', '.'));
};

const TEXTS = {
  en: {
    empty: 'The file has no rows.',
    counts: (rows: number, columns: number) => `${rows} rows and ${columns} columns.`,
    numeric: 'Numeric columns',
    line: (name: string, sum: string, avg: string, min: string, max: string) =>
      `- **${name}**: total ${sum}, average ${avg}, from ${min} to ${max}`,
    none: 'No column holds only numbers.',
    text: 'Other columns',
    distinct: (name: string, n: number) => `- **${name}**: ${n} different values`,
    first: 'First rows',
    last: 'Last rows',
  },
  es: {
    empty: 'El archivo no tiene filas.',
    counts: (rows: number, columns: number) => `${rows} filas y ${columns} columnas.`,
    numeric: 'Columnas numéricas',
    line: (name: string, sum: string, avg: string, min: string, max: string) =>
      `- **${name}**: total ${sum}, media ${avg}, de ${min} a ${max}`,
    none: 'Ninguna columna contiene solo números.',
    text: 'Otras columnas',
    distinct: (name: string, n: number) => `- **${name}**: ${n} valores distintos`,
    first: 'Primeras filas',
    last: 'Últimas filas',
  },
};

/** Options of the demo's checkbox question (their English text is the stored option, sent as its label). */
const SHOW_FIRST_ROWS = ['First rows', 'Primeras filas'];
const SHOW_LAST_ROWS = ['Last rows', 'Últimas filas'];
const ROWS_SHOWN = 5;

/** A Markdown summary: counts, the numeric columns' figures, the other columns' distinct values. */
export function summariseCsv(text: string, language: 'es' | 'en', wanted: string[] = []): string {
  const t = TEXTS[language];
  const [header, ...rows] = parseCsv(text);
  if (!header || rows.length === 0) return t.empty;
  const format = new Intl.NumberFormat(language === 'es' ? 'es-ES' : 'en-US', { maximumFractionDigits: 2 });
  const numeric: string[] = [];
  const other: string[] = [];
  header.forEach((rawName, column) => {
    const name = rawName.trim() || `#${column + 1}`;
    const values = rows.map((r) => r[column] ?? '').filter((v) => v.trim() !== '');
    const numbers = values.map(asNumber);
    if (values.length > 0 && numbers.every((n) => n !== null)) {
      const list = numbers as number[];
      const sum = list.reduce((a, b) => a + b, 0);
      numeric.push(
        t.line(
          name,
          format.format(sum),
          format.format(sum / list.length),
          format.format(Math.min(...list)),
          format.format(Math.max(...list)),
        ),
      );
    } else other.push(t.distinct(name, new Set(values.map((v) => v.trim())).size));
  });
  const parts = [
    t.counts(rows.length, header.length),
    '',
    `### ${t.numeric}`,
    ...(numeric.length ? numeric : [t.none]),
  ];
  if (other.length) parts.push('', `### ${t.text}`, ...other);
  const cell = (v: string) => v.replace(/\|/g, '\\|').trim();
  const table = (title: string, shown: string[][]) => [
    '',
    `### ${title}`,
    `| ${header.map(cell).join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...shown.map((r) => `| ${header.map((_, i) => cell(r[i] ?? '')).join(' | ')} |`),
  ];
  if (wanted.some((w) => SHOW_FIRST_ROWS.includes(w)))
    parts.push(...table(t.first, rows.slice(0, ROWS_SHOWN)));
  if (wanted.some((w) => SHOW_LAST_ROWS.includes(w))) parts.push(...table(t.last, rows.slice(-ROWS_SHOWN)));
  return parts.join('\n');
}
