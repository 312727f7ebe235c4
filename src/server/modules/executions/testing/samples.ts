import { deflateRawSync } from 'node:zlib';

/** Small, genuine files of each accepted type, and impostors. */

export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
export const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9,
]);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
export const CSV = Buffer.from('name,total\nAna,3\nLuis,4\n');
export const TXT = Buffer.from('Resumen: todo correcto.\n');
export const JSON_FILE = Buffer.from('{"ok":true,"items":[1,2,3]}');
/** A Windows executable's first bytes. */
export const EXE = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.from([0x90, 0x00, 0x03, 0x00, 0x00, 0x00]),
  Buffer.alloc(64),
]);

/** A minimal zip (stored or deflated entries) with the given files. */
export function zip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

export const XLSX = zip({
  '[Content_Types].xml': '<?xml version="1.0"?><Types/>',
  '_rels/.rels': '<Relationships/>',
  'xl/workbook.xml': '<workbook/>',
  'xl/worksheets/sheet1.xml': '<worksheet/>',
});

/**
 * A workbook that lies about its sizes: a few kilobytes on the wire, its sheet inflating to 16 MiB, while its
 * central directory and local headers agree on 1000 bytes per entry.
 */
export function lyingXlsx(): Buffer {
  const bytes = zip({
    '[Content_Types].xml': '<?xml version="1.0"?><Types/>',
    'xl/workbook.xml': '<workbook/>',
    'xl/worksheets/sheet1.xml': 'A'.repeat(16 * 1024 * 1024),
  });
  for (let i = 0; i < bytes.length - 4; i += 1) {
    if (bytes.readUInt32LE(i) === 0x02014b50) bytes.writeUInt32LE(1000, i + 24);
    if (bytes.readUInt32LE(i) === 0x04034b50) bytes.writeUInt32LE(1000, i + 22);
  }
  return bytes;
}
