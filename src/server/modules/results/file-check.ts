import { RESULT_FILE_EXTENSIONS } from '#shared/contract/results.js';
import { badRequest } from '#server/lib/errors.js';
import { inflatesWithin, listZipEntries } from './zip-inspect.js';

export type ResultExtension = (typeof RESULT_FILE_EXTENSIONS)[number];

export interface CheckedFile {
  extension: ResultExtension;
  contentType: string;
  outputType: 'image' | 'file';
}

const CONTENT_TYPES: Record<ResultExtension, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

const XLSX_MAX_ENTRIES = 2000;
/**
 * What an xlsx may inflate to, in all: 100 times its own size (real workbooks stay far below that; a zip
 * bomb is far above it), never less than 1 MiB (a tiny workbook's XML is mostly fixed text) and never more
 * than 100 MiB.
 */
const XLSX_MAX_RATIO = 100;
const XLSX_MIN_INFLATED = 1024 * 1024;
const XLSX_MAX_INFLATED = 100 * 1024 * 1024;

export function xlsxInflateCap(fileBytes: number): number {
  return Math.min(XLSX_MAX_INFLATED, Math.max(XLSX_MIN_INFLATED, fileBytes * XLSX_MAX_RATIO));
}
/** Beginnings of executables and scripts a text file must not have. */
const EXECUTABLE_PREFIXES = [Buffer.from('MZ'), Buffer.from('\x7fELF', 'latin1'), Buffer.from('#!')];

const startsWith = (bytes: Buffer, prefix: number[] | Buffer) =>
  bytes.length >= prefix.length && Buffer.from(prefix).equals(bytes.subarray(0, prefix.length));

function utf8Text(bytes: Buffer): string | null {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // A NUL byte means binary data, whatever the decoder accepted.
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

async function xlsxLooksRight(bytes: Buffer): Promise<boolean> {
  if (!startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return false;
  const listing = listZipEntries(bytes, XLSX_MAX_ENTRIES);
  if (!listing) return false;
  const { entries } = listing;
  const names = new Set(entries.map((e) => e.name));
  if (!names.has('[Content_Types].xml') || !entries.some((e) => e.name.startsWith('xl/'))) return false;
  return inflatesWithin(bytes, listing, xlsxInflateCap(bytes.length));
}

/** Whether the bytes really are what the extension says. */
async function contentMatches(extension: ResultExtension, bytes: Buffer): Promise<boolean> {
  switch (extension) {
    case 'pdf':
      return startsWith(bytes, Buffer.from('%PDF-'));
    case 'png':
      return startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'jpg':
    case 'jpeg':
      return startsWith(bytes, [0xff, 0xd8, 0xff]);
    case 'xlsx':
      return xlsxLooksRight(bytes);
    case 'csv':
    case 'txt':
      return utf8Text(bytes) !== null && !EXECUTABLE_PREFIXES.some((p) => startsWith(bytes, p));
    case 'json': {
      const text = utf8Text(bytes);
      if (text === null) return false;
      try {
        JSON.parse(text.replace(/^\uFEFF/, ''));
        return true;
      } catch {
        return false;
      }
    }
  }
}

/** The extension of a display filename, lower-cased, if it is one we accept. */
export function allowedExtension(filename: string): ResultExtension | null {
  const match = /\.([A-Za-z0-9]+)$/.exec(filename);
  const ext = match?.[1]?.toLowerCase();
  return (RESULT_FILE_EXTENSIONS as readonly string[]).includes(ext ?? '') ? (ext as ResultExtension) : null;
}

/**
 * Checks a result or answer file by its extension (allowlist) and by its bytes; throws a 400 otherwise. An
 * xlsx is inflated to be checked, so this is asynchronous.
 */
export async function checkResultFile(filename: string, bytes: Buffer): Promise<CheckedFile> {
  const extension = allowedExtension(filename);
  if (!extension) {
    throw badRequest({
      key: 'fileTypeNotAllowed',
      params: { extensions: RESULT_FILE_EXTENSIONS.join(', ') },
    });
  }
  if (bytes.length === 0) throw badRequest('fileEmpty');
  if (!(await contentMatches(extension, bytes))) {
    throw badRequest({ key: 'fileContentInvalid', params: { extension } });
  }
  return {
    extension,
    contentType: CONTENT_TYPES[extension],
    outputType: extension === 'png' || extension === 'jpg' || extension === 'jpeg' ? 'image' : 'file',
  };
}

export function contentTypeOf(extension: string): string {
  return (CONTENT_TYPES as Record<string, string>)[extension] ?? 'application/octet-stream';
}

/**
 * Characters that change how a name reads without being seen: the bidirectional controls (an override
 * turns `invoice\u202Efdp.txt` into what looks like "invoicetxt.pdf") and the zero-width ones.
 */
const INVISIBLE_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b-\u200d\u2060\ufeff]/g;

/**
 * The one filename sanitiser, for names stored and names served: the last path segment, without control,
 * bidirectional-control or zero-width characters, trimmed, without leading dots. May answer ''.
 */
export function cleanFilename(raw: string | null | undefined): string {
  const last = (raw ?? '').split(/[/\\]/).pop() ?? '';
  return (
    last
      // eslint-disable-next-line no-control-regex -- stripping control characters is the point
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
      .replace(INVISIBLE_CONTROLS, '')
      .trim()
      .replace(/^\.+/, '')
  );
}

/**
 * A filename safe to show and to put in a header (cleanFilename), at most 200 characters. The stored file
 * never uses it.
 */
export function displayFilename(raw: string | null | undefined, extension: string): string {
  const clean = cleanFilename(raw);
  const name = clean.length > 0 ? clean : `result.${extension}`;
  if (name.length <= 200) return name;
  return `${name.slice(0, 190)}.${extension}`;
}
