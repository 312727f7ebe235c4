import { createInflateRaw } from 'node:zlib';

/**
 * Checks a zip (an xlsx) without trusting what it says about itself: the central directory is read with a
 * bounded number of entries, every local header must agree with it, and every entry is inflated (the output
 * counted and thrown away) under a cap on the total, stopping as soon as the cap is passed. A zip bomb that
 * declares small sizes is caught by the inflation, not by its own word.
 */

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_MIN = 22;
const LOCAL_HEADER = 30;
const MAX_COMMENT = 0xffff;
/** General-purpose flag bit 3: sizes and CRC follow the data, and the local header holds zeros for them. */
const DATA_DESCRIPTOR = 0x0008;
/** General-purpose flag bit 0: the entry is encrypted, which no spreadsheet we accept needs. */
const ENCRYPTED = 0x0001;
const STORED = 0;
const DEFLATED = 8;

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

export interface ZipListing {
  entries: ZipEntry[];
  /** Where the central directory starts: every entry's data must end before it. */
  directoryOffset: number;
}

/** The entries of a zip archive, or null when the bytes are not a well-formed (non-zip64) archive. */
export function listZipEntries(bytes: Buffer, maxEntries: number): ZipListing | null {
  if (bytes.length < EOCD_MIN) return null;
  const searchFrom = Math.max(0, bytes.length - EOCD_MIN - MAX_COMMENT);
  let eocd = -1;
  for (let i = bytes.length - EOCD_MIN; i >= searchFrom; i -= 1) {
    if (bytes.readUInt32LE(i) === EOCD_SIGNATURE) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = bytes.readUInt16LE(eocd + 10);
  const dirSize = bytes.readUInt32LE(eocd + 12);
  const dirOffset = bytes.readUInt32LE(eocd + 16);
  if (count > maxEntries || dirOffset + dirSize > eocd) return null;
  const entries: ZipEntry[] = [];
  let p = dirOffset;
  for (let n = 0; n < count; n += 1) {
    if (p + 46 > eocd || bytes.readUInt32LE(p) !== CENTRAL_SIGNATURE) return null;
    const nameLength = bytes.readUInt16LE(p + 28);
    const extraLength = bytes.readUInt16LE(p + 30);
    const commentLength = bytes.readUInt16LE(p + 32);
    entries.push({
      flags: bytes.readUInt16LE(p + 8),
      method: bytes.readUInt16LE(p + 10),
      compressedSize: bytes.readUInt32LE(p + 20),
      uncompressedSize: bytes.readUInt32LE(p + 24),
      name: bytes.toString('utf8', p + 46, p + 46 + nameLength),
      localHeaderOffset: bytes.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return { entries, directoryOffset: dirOffset };
}

/**
 * Where an entry's data lies, when its local header agrees with the central directory (signature, name,
 * method, and the sizes unless a data descriptor carries them) and the data ends before `limit`; else null.
 */
function entryData(bytes: Buffer, entry: ZipEntry, limit: number): { start: number; end: number } | null {
  const at = entry.localHeaderOffset;
  if (at + LOCAL_HEADER > limit || bytes.readUInt32LE(at) !== LOCAL_SIGNATURE) return null;
  const flags = bytes.readUInt16LE(at + 6);
  const method = bytes.readUInt16LE(at + 8);
  const nameLength = bytes.readUInt16LE(at + 26);
  const extraLength = bytes.readUInt16LE(at + 28);
  const name = bytes.toString('utf8', at + LOCAL_HEADER, at + LOCAL_HEADER + nameLength);
  if (name !== entry.name || method !== entry.method) return null;
  if ((flags & DATA_DESCRIPTOR) !== (entry.flags & DATA_DESCRIPTOR)) return null;
  if (
    (flags & DATA_DESCRIPTOR) === 0 &&
    (bytes.readUInt32LE(at + 18) !== entry.compressedSize ||
      bytes.readUInt32LE(at + 22) !== entry.uncompressedSize)
  ) {
    return null;
  }
  const start = at + LOCAL_HEADER + nameLength + extraLength;
  const end = start + entry.compressedSize;
  return end <= limit ? { start, end } : null;
}

/**
 * Inflates `data`, counting what comes out: resolves the count, or null as soon as it passes `max` (the
 * inflater is destroyed there, so no more than one chunk past the cap is ever produced) or the data is bad.
 */
function inflatedSize(data: Buffer, max: number): Promise<number | null> {
  return new Promise((resolve) => {
    const inflater = createInflateRaw();
    let total = 0;
    let settled = false;
    const settle = (value: number | null) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    inflater.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > max) {
        settle(null);
        inflater.destroy();
      }
    });
    inflater.on('error', () => settle(null));
    inflater.on('end', () => settle(total));
    inflater.end(data);
  });
}

/**
 * Whether every entry of the listing inflates to exactly the size the central directory declares and the
 * whole archive to at most `maxTotal` bytes. Entries may not overlap (one compressed stream counted twice)
 * nor reach into the central directory.
 */
export async function inflatesWithin(bytes: Buffer, listing: ZipListing, maxTotal: number): Promise<boolean> {
  const declared = listing.entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
  if (declared > maxTotal) return false;
  const spans: { start: number; end: number }[] = [];
  for (const entry of listing.entries) {
    if ((entry.flags & ENCRYPTED) !== 0) return false;
    const span = entryData(bytes, entry, listing.directoryOffset);
    if (!span) return false;
    spans.push({ start: entry.localHeaderOffset, end: span.end });
  }
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i += 1) if (spans[i]!.start < spans[i - 1]!.end) return false;
  // Each entry may inflate to no more than it declares, and the declared sizes add up to at most the cap.
  for (const entry of listing.entries) {
    const span = entryData(bytes, entry, listing.directoryOffset)!;
    const data = bytes.subarray(span.start, span.end);
    let size: number | null;
    if (entry.method === STORED) size = data.length;
    else if (entry.method === DEFLATED) size = await inflatedSize(data, entry.uncompressedSize);
    else return false;
    if (size !== entry.uncompressedSize) return false;
  }
  return true;
}
