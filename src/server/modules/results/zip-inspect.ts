/**
 * Reads a zip's central directory (no decompression) so an xlsx can be checked cheaply: a bounded number
 * of entries, a bounded total uncompressed size (zip bombs), and the parts an Office file must have.
 */

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const EOCD_MIN = 22;
const MAX_COMMENT = 0xffff;

export interface ZipEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
}

/** The entries of a zip archive, or null when the bytes are not a well-formed (non-zip64) archive. */
export function listZipEntries(bytes: Buffer, maxEntries: number): ZipEntry[] | null {
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
    const compressedSize = bytes.readUInt32LE(p + 20);
    const uncompressedSize = bytes.readUInt32LE(p + 24);
    const nameLength = bytes.readUInt16LE(p + 28);
    const extraLength = bytes.readUInt16LE(p + 30);
    const commentLength = bytes.readUInt16LE(p + 32);
    const name = bytes.toString('utf8', p + 46, p + 46 + nameLength);
    entries.push({ name, compressedSize, uncompressedSize });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
