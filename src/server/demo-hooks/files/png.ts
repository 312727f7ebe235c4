import { crc32, deflateSync } from 'node:zlib';

export type Rgb = readonly [number, number, number];

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A truecolour PNG of the given pixels (row-major RGB), each scanline with filter "none". */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  // compression, filter and interlace methods: 0
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const [r, g, b] = pixel(x, y);
      const at = y * stride + 1 + x * 3;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
    }
  }
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PALETTE: Rgb[] = [
  [37, 99, 235],
  [22, 163, 74],
  [234, 88, 12],
  [147, 51, 234],
  [219, 39, 119],
  [13, 148, 136],
];
const BACKGROUND: Rgb = [248, 250, 252];
const GRID: Rgb = [226, 232, 240];
const AXIS: Rgb = [100, 116, 139];

/**
 * A bar chart of the values (one bar each, scaled to the largest), with light grid lines: a picture of the
 * answers without any text, so it needs no font.
 */
export function barChartPng(values: number[], width = 640, height = 360): Buffer {
  const margin = 32;
  const plotWidth = width - margin * 2;
  const plotHeight = height - margin * 2;
  const bars = values.length > 0 ? values : [0];
  const max = Math.max(...bars.map((v) => Math.max(0, v)), 1);
  const slot = plotWidth / bars.length;
  const barWidth = Math.max(4, Math.floor(slot * 0.6));
  const baseline = margin + plotHeight;
  return encodePng(width, height, (x, y) => {
    if (y === baseline && x >= margin && x <= margin + plotWidth) return AXIS;
    if (x === margin && y >= margin && y <= baseline) return AXIS;
    const index = Math.floor((x - margin) / slot);
    const value = bars[index];
    if (value !== undefined && x > margin) {
      const left = margin + index * slot + (slot - barWidth) / 2;
      const top = baseline - Math.round((Math.max(0, value) / max) * plotHeight);
      if (x >= left && x < left + barWidth && y >= top && y < baseline) {
        return PALETTE[index % PALETTE.length] ?? AXIS;
      }
    }
    if (y > margin && y < baseline && (baseline - y) % Math.round(plotHeight / 4) === 0) return GRID;
    return BACKGROUND;
  });
}
