import { crc32, inflateRawSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { csvFile } from './csv.js';
import { pdfDocument, wrapLines } from './pdf.js';
import { barChartPng, encodePng } from './png.js';
import { columnName, xlsxWorkbook } from './xlsx.js';
import { zip } from './zip.js';

/** Reads a ZIP the way an unzip tool does: from the end-of-central-directory record. */
function readZip(bytes: Buffer): Map<string, Buffer> {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(0);
  const count = bytes.readUInt16LE(eocd + 10);
  const dirSize = bytes.readUInt32LE(eocd + 12);
  const dirOffset = bytes.readUInt32LE(eocd + 16);
  expect(dirOffset + dirSize).toBe(eocd);
  const files = new Map<string, Buffer>();
  let at = dirOffset;
  for (let i = 0; i < count; i += 1) {
    expect(bytes.readUInt32LE(at)).toBe(0x02014b50);
    const method = bytes.readUInt16LE(at + 10);
    const crc = bytes.readUInt32LE(at + 16);
    const compressedSize = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const localOffset = bytes.readUInt32LE(at + 42);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(bytes.readUInt32LE(localOffset)).toBe(0x04034b50);
    const localName = bytes.readUInt16LE(localOffset + 26);
    const localExtra = bytes.readUInt16LE(localOffset + 28);
    const start = localOffset + 30 + localName + localExtra;
    const stored = bytes.subarray(start, start + compressedSize);
    const data = method === 8 ? inflateRawSync(stored) : stored;
    expect(data.length).toBe(size);
    expect(crc32(data)).toBe(crc);
    files.set(name, data);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

describe('zip', () => {
  it('writes an archive whose central directory, sizes and CRCs an unzip tool accepts', () => {
    const archive = zip([
      { name: 'a.txt', data: Buffer.from('hello hello hello hello') },
      { name: 'dir/ñ.xml', data: Buffer.from('<x>ü</x>') },
      { name: 'empty', data: Buffer.alloc(0) },
    ]);
    const files = readZip(archive);
    expect([...files.keys()]).toEqual(['a.txt', 'dir/ñ.xml', 'empty']);
    expect(files.get('dir/ñ.xml')?.toString()).toBe('<x>ü</x>');
    expect(files.get('empty')?.length).toBe(0);
  });
});

describe('xlsx', () => {
  it('holds the five parts of a workbook with the rows as inline strings and numbers', () => {
    const book = xlsxWorkbook('Respuestas', [
      ['Pregunta', 'Respuesta'],
      ['¿Cuántos?', 3],
      ['Notes <& "quotes">', 'a\nb'],
    ]);
    expect(book.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    const files = readZip(book);
    expect([...files.keys()].sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const sheet = files.get('xl/worksheets/sheet1.xml')?.toString() ?? '';
    expect(sheet).toContain('<c r="B2"><v>3</v></c>');
    expect(sheet).toContain('¿Cuántos?');
    expect(sheet).toContain('Notes &lt;&amp; &quot;quotes&quot;&gt;');
    expect(files.get('xl/workbook.xml')?.toString()).toContain('name="Respuestas"');
    expect(files.get('[Content_Types].xml')?.toString()).toContain('/xl/worksheets/sheet1.xml');
  });

  it('names columns like a spreadsheet', () => {
    expect([0, 1, 25, 26, 27, 701, 702].map(columnName)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
  });
});

describe('png', () => {
  function chunks(png: Buffer) {
    const out: Array<{ type: string; data: Buffer }> = [];
    for (let at = 8; at < png.length;) {
      const length = png.readUInt32BE(at);
      const type = png.subarray(at + 4, at + 8).toString('latin1');
      const data = png.subarray(at + 8, at + 8 + length);
      expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
      out.push({ type, data });
      at += 12 + length;
    }
    return out;
  }

  it('has the PNG signature, chunks with correct CRCs and the pixels it was asked for', () => {
    const png = encodePng(3, 2, (x, y) => [x * 10, y * 20, 255]);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const parts = chunks(png);
    expect(parts.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const ihdr = parts[0]?.data ?? Buffer.alloc(0);
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9]]).toEqual([3, 2, 8, 2]);
    const raw = inflateSync(parts[1]?.data ?? Buffer.alloc(0));
    expect(raw.length).toBe((1 + 3 * 3) * 2);
    // Second row, third pixel: filter byte, then RGB.
    expect([...raw.subarray(10 + 1 + 6, 10 + 1 + 9)]).toEqual([20, 20, 255]);
  });

  it('draws taller bars for larger values', () => {
    // 200 px wide with 32 px margins: two 68 px slots, centred at x = 66 and x = 134.
    const png = barChartPng([1, 4], 200, 200);
    const parts = chunks(png);
    const raw = inflateSync(parts.find((c) => c.type === 'IDAT')?.data ?? Buffer.alloc(0));
    const stride = 1 + 200 * 3;
    const isBar = (x: number, y: number) => {
      const at = y * stride + 1 + x * 3;
      return raw[at] === 37 || raw[at] === 22; // the first two palette colours
    };
    const height = (x: number) => Array.from({ length: 200 }, (_, y) => isBar(x, y)).filter(Boolean).length;
    expect(height(66)).toBeGreaterThan(0);
    // Scaled to the largest value (rounded to whole pixels).
    expect(Math.abs(height(134) - height(66) * 4)).toBeLessThanOrEqual(2);
    // The value is written above its bar, in the axis colour.
    const firstBarTop = Array.from({ length: 200 }, (_, y) => y).find((y) => isBar(66, y)) ?? 0;
    const labelPixels = Array.from({ length: 24 }, (_, i) => firstBarTop - 24 + i).filter((y) =>
      Array.from({ length: 20 }, (_, dx) => 56 + dx).some((x) => raw[y * stride + 1 + x * 3] === 100),
    );
    expect(labelPixels.length).toBeGreaterThan(0);
  });
});

describe('pdf', () => {
  it('is a PDF 1.4 whose xref table points at every object and whose trailer ends the file', () => {
    const pdf = pdfDocument('Informe (demo)', [
      { text: '¿Qué tal?', bold: true },
      { text: 'Muy bien, gracias \\ (sí)' },
    ]);
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.endsWith('%%EOF\n')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const [, first, count] = /xref\n(\d+) (\d+)\n/.exec(text) ?? [];
    expect(first).toBe('0');
    const entries = text
      .slice(startxref)
      .split('\n')
      .slice(3, 2 + Number(count));
    entries.forEach((entry, i) => {
      const offset = Number(entry.slice(0, 10));
      expect(text.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true);
    });
    expect(text).toContain('/Root 1 0 R');
    // Latin-1 letters survive; parentheses and backslashes are escaped.
    expect(text).toContain('(\xbfQu\xe9 tal?)');
    expect(text).toContain('(Muy bien, gracias \\\\ \\(s\xed\\))');
    // Content stream lengths are exact.
    for (const match of text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
      const start = (match.index ?? 0) + match[0].length;
      expect(text.slice(start + Number(match[1]), start + Number(match[1]) + 10)).toBe('\nendstream');
    }
  });

  it('wraps long lines and flows onto more pages', () => {
    expect(wrapLines([{ text: 'word '.repeat(40) }], 20).every((l) => l.text.length <= 20)).toBe(true);
    const long = pdfDocument(
      'Long',
      Array.from({ length: 120 }, (_, i) => ({ text: `Line ${i}` })),
    );
    expect(long.toString('latin1')).toMatch(/\/Count 3 >>/);
  });
});

describe('csv', () => {
  it('quotes what needs quoting, guards formulas and starts with a BOM', () => {
    const csv = csvFile([
      ['question', 'answer'],
      ['Name, full', 'Ana "la jefa"'],
      ['Formula', '=HYPERLINK("x")'],
      ['Lines', 'a\nb'],
    ]).toString('utf8');
    expect(csv).toBe(
      '\uFEFFquestion,answer\r\n"Name, full","Ana ""la jefa"""\r\nFormula,"\'=HYPERLINK(""x"")"\r\nLines,"a\nb"\r\n',
    );
  });
});
