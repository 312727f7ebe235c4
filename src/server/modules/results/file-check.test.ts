import { describe, expect, it } from 'vitest';
import { CSV, EXE, JPEG, JSON_FILE, PDF, PNG, TXT, XLSX, zip } from '../executions/testing/samples.js';
import { checkResultFile, displayFilename } from './file-check.js';

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
  ])('accepts %s', (name, bytes, type) => {
    expect(checkResultFile(name, bytes).outputType).toBe(type);
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
  ])('refuses %s', (_what, name, bytes) => {
    expect(() => checkResultFile(name, bytes)).toThrow();
  });

  it('refuses an xlsx whose entries claim more than 200 MB uncompressed (zip bomb)', () => {
    const copy = Buffer.from(XLSX);
    // Rewrite every central-directory entry's uncompressed size to 100 MB.
    for (let i = 0; i < copy.length - 4; i += 1) {
      if (copy.readUInt32LE(i) === 0x02014b50) copy.writeUInt32LE(100 * 1024 * 1024, i + 24);
    }
    expect(() => checkResultFile('a.xlsx', copy)).toThrow();
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
  ])('%j shows as %s', (raw, ext, shown) => {
    expect(displayFilename(raw, ext)).toBe(shown);
  });

  it('keeps long names under 200 characters with their extension', () => {
    const name = displayFilename(`${'a'.repeat(300)}.pdf`, 'pdf');
    expect(name.length).toBeLessThanOrEqual(200);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});
