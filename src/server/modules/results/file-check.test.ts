import { describe, expect, it } from 'vitest';
import {
  CSV,
  EXE,
  JPEG,
  JSON_FILE,
  lyingXlsx,
  PDF,
  PNG,
  TXT,
  XLSX,
  zip,
} from '../executions/testing/samples.js';
import { contentDisposition } from './download.js';
import { checkResultFile, displayFilename, xlsxInflateCap } from './file-check.js';

describe('checkResultFile', () => {
  it.each([
    ['a.pdf', PDF, 'file'],
    ['a.csv', CSV, 'file'],
    ['a.xlsx', XLSX, 'file'],
    ['a.txt', TXT, 'file'],
    ['a.json', JSON_FILE, 'file'],
    ['a.png', PNG, 'image'],
    ['a.jpg', JPEG, 'image'],
    ['a.JPEG', JPEG, 'image'],
  ])('accepts %s', async (name, bytes, type) => {
    expect((await checkResultFile(name, bytes)).outputType).toBe(type);
  });

  const manyEntries = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`xl/s${i}.xml`, 'x']));
  it.each([
    ['PNG bytes named .pdf', 'a.pdf', PNG],
    ['an executable named .pdf', 'a.pdf', EXE],
    ['an executable named .txt', 'a.txt', EXE],
    ['an executable named .csv', 'a.csv', Buffer.from('MZ this is not a table')],
    ['an ELF named .txt', 'a.txt', Buffer.from('\x7fELF', 'latin1')],
    ['a script named .txt', 'a.txt', Buffer.from('#!/bin/sh\nrm -rf /\n')],
    ['a PDF named .png', 'a.png', PDF],
    ['a PNG named .jpg', 'a.jpg', PNG],
    ['invalid UTF-8 as .csv', 'a.csv', Buffer.from([0x61, 0xff, 0x62])],
    ['broken JSON', 'a.json', Buffer.from('{"a":')],
    ['a zip without [Content_Types].xml', 'a.xlsx', zip({ 'xl/workbook.xml': '<w/>' })],
    ['a zip with too many entries', 'a.xlsx', zip({ '[Content_Types].xml': '<T/>', ...manyEntries })],
    ['a truncated zip', 'a.xlsx', XLSX.subarray(0, XLSX.length - 30)],
    ['an empty file', 'a.txt', Buffer.alloc(0)],
    ['an unlisted extension', 'a.exe', EXE],
    ['a double extension ending badly', 'a.pdf.exe', PDF],
    ['no extension', 'README', TXT],
  ])('refuses %s', async (_what, name, bytes) => {
    await expect(checkResultFile(name, bytes)).rejects.toThrow();
  });

  it('refuses an xlsx whose entries claim more than the cap uncompressed', async () => {
    const copy = Buffer.from(XLSX);
    // Rewrite every entry's uncompressed size to 100 MB, in the central directory and the local headers.
    setSizes(copy, { uncompressed: 100 * 1024 * 1024 });
    await expect(checkResultFile('a.xlsx', copy)).rejects.toThrow();
  });
});

const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Rewrites what every entry of a zip declares, in the central directory and the local headers. */
function setSizes(bytes: Buffer, sizes: { uncompressed: number }) {
  for (let i = 0; i < bytes.length - 4; i += 1) {
    if (bytes.readUInt32LE(i) === CENTRAL) bytes.writeUInt32LE(sizes.uncompressed, i + 24);
    if (bytes.readUInt32LE(i) === LOCAL) bytes.writeUInt32LE(sizes.uncompressed, i + 22);
  }
}

const refusedAsNotXlsx = (bytes: Buffer) =>
  expect(checkResultFile('answer.xlsx', bytes)).rejects.toMatchObject({
    code: 'VALIDATION_ERROR',
    message: expect.stringContaining('.xlsx'),
  });

describe('an xlsx that lies about its sizes (zip bomb)', () => {
  // 16 MiB of one repeated character deflates to a few kilobytes: far past the cap for a file that size.
  const bombed = () =>
    zip({
      '[Content_Types].xml': '<?xml version="1.0"?><Types/>',
      'xl/workbook.xml': '<workbook/>',
      'xl/worksheets/sheet1.xml': 'A'.repeat(16 * 1024 * 1024),
    });

  it('is small on the wire and inflates far past the cap', () => {
    const bytes = bombed();
    expect(bytes.length).toBeLessThan(100 * 1024);
    expect(16 * 1024 * 1024).toBeGreaterThan(xlsxInflateCap(bytes.length));
  });

  it('is refused when every header declares a small size', async () => {
    await refusedAsNotXlsx(lyingXlsx());
  });

  it('is refused when it declares its true size (past the cap)', async () => {
    await refusedAsNotXlsx(bombed());
  });

  it('is refused when a local header disagrees with the central directory', async () => {
    const bytes = Buffer.from(XLSX);
    let locals = 0;
    for (let i = 0; i < bytes.length - 4; i += 1) {
      // Only the first local header is changed: it now claims one byte more than the directory says.
      if (bytes.readUInt32LE(i) === LOCAL && locals++ === 0) {
        bytes.writeUInt32LE(bytes.readUInt32LE(i + 22) + 1, i + 22);
      }
    }
    await refusedAsNotXlsx(bytes);
  });

  it('is refused when an entry inflates to less than it declares', async () => {
    const bytes = Buffer.from(XLSX);
    setSizes(bytes, { uncompressed: 5000 });
    await refusedAsNotXlsx(bytes);
  });

  it('leaves an honest workbook of the same shape accepted', async () => {
    const honest = zip({
      '[Content_Types].xml': '<?xml version="1.0"?><Types/>',
      'xl/workbook.xml': '<workbook/>',
      'xl/worksheets/sheet1.xml': '<row>1</row>'.repeat(20_000),
    });
    expect((await checkResultFile('a.xlsx', honest)).extension).toBe('xlsx');
  });
});

describe('displayFilename', () => {
  it.each([
    ['../../x.png', 'png', 'x.png'],
    ['C:\\\\Windows\\\\evil.pdf', 'pdf', 'evil.pdf'],
    ['in\r\nforme.pdf', 'pdf', 'informe.pdf'],
    ['.hidden.csv', 'csv', 'hidden.csv'],
    ['', 'csv', 'result.csv'],
    [null, 'json', 'result.json'],
    ['ñandú informe.pdf', 'pdf', 'ñandú informe.pdf'],
    ['invoice\u202Efdp.txt', 'txt', 'invoicefdp.txt'],
    ['\u2066a\u2067b\u2068c\u2069\u202A\u202B\u202C\u202D.pdf', 'pdf', 'abc.pdf'],
    ['re\u200Eal\u200F\u061C.csv', 'csv', 'real.csv'],
    ['zero\u200B\u200C\u200D\u2060\uFEFFwidth.png', 'png', 'zerowidth.png'],
    ['\u202E.hidden.pdf', 'pdf', 'hidden.pdf'],
  ])('%j shows as %s', (raw, ext, shown) => {
    expect(displayFilename(raw, ext)).toBe(shown);
  });

  it('keeps long names under 200 characters with their extension', () => {
    const name = displayFilename(`${'a'.repeat(300)}.pdf`, 'pdf');
    expect(name.length).toBeLessThanOrEqual(200);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});

describe('contentDisposition', () => {
  it('serves a stored name without its bidirectional and zero-width characters', () => {
    const header = contentDisposition('attachment', 'invoice\u202Efdp\u200B.txt');
    expect(header).toBe(`attachment; filename="invoicefdp.txt"; filename*=UTF-8''invoicefdp.txt`);
  });
});
