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

/** 3x5 pixel glyphs for the value labels: enough to write numbers without a font file. */
const GLYPHS: Record<string, string[]> = {
  '0': ['111', '101', '101', '101', '111'],
  '1': ['010', '110', '010', '010', '111'],
  '2': ['111', '001', '111', '100', '111'],
  '3': ['111', '001', '111', '001', '111'],
  '4': ['101', '101', '111', '001', '001'],
  '5': ['111', '100', '111', '001', '111'],
  '6': ['111', '100', '111', '101', '111'],
  '7': ['111', '001', '010', '010', '010'],
  '8': ['111', '101', '111', '101', '111'],
  '9': ['111', '101', '111', '001', '111'],
  '.': ['000', '000', '000', '000', '010'],
  '-': ['000', '000', '111', '000', '000'],
};
const GLYPH_SCALE = 3;
const GLYPH_WIDTH = 4 * GLYPH_SCALE; // 3 columns and a 1-column gap

/** A short label for a value: at most one decimal, as the glyphs can draw it. */
function valueLabel(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return String(rounded).slice(0, 8);
}

/** Whether (x, y) falls on a pixel of `text` drawn with its top-centre at (cx, top). */
function onLabel(text: string, cx: number, top: number, x: number, y: number): boolean {
  const left = Math.round(cx - (text.length * GLYPH_WIDTH - GLYPH_SCALE) / 2);
  if (y < top || y >= top + 5 * GLYPH_SCALE || x < left) return false;
  const index = Math.floor((x - left) / GLYPH_WIDTH);
  const glyph = GLYPHS[text[index] ?? ''];
  if (!glyph) return false;
  const col = Math.floor(((x - left) % GLYPH_WIDTH) / GLYPH_SCALE);
  const row = Math.floor((y - top) / GLYPH_SCALE);
  return col < 3 && glyph[row]?.[col] === '1';
}

/**
 * A bar chart of the values (one bar each, scaled to the largest) with its value above each bar and light
 * grid lines: a picture of the answers drawn pixel by pixel, so it needs no font or canvas library.
 */
export function barChartPng(values: number[], width = 640, height = 360): Buffer {
  const margin = 32;
  const labelSpace = 5 * GLYPH_SCALE + 8;
  const plotWidth = width - margin * 2;
  const plotHeight = height - margin * 2 - labelSpace;
  const bars = values.length > 0 ? values : [0];
  const max = Math.max(...bars.map((v) => Math.max(0, v)), 1);
  const slot = plotWidth / bars.length;
  const barWidth = Math.max(4, Math.floor(slot * 0.6));
  const baseline = height - margin;
  const tops = bars.map((v) => baseline - Math.round((Math.max(0, v) / max) * plotHeight));
  const labels = bars.map(valueLabel);
  const gridStep = Math.round(plotHeight / 4);
  return encodePng(width, height, (x, y) => {
    if (y === baseline && x >= margin && x <= margin + plotWidth) return AXIS;
    if (x === margin && y >= baseline - plotHeight && y <= baseline) return AXIS;
    const index = Math.floor((x - margin) / slot);
    const top = tops[index];
    if (top !== undefined && x > margin) {
      const centre = margin + index * slot + slot / 2;
      const left = centre - barWidth / 2;
      if (x >= left && x < left + barWidth && y >= top && y < baseline) {
        return PALETTE[index % PALETTE.length] ?? AXIS;
      }
      if (onLabel(labels[index] ?? '', centre, top - labelSpace + 2, x, y)) return AXIS;
    }
    const inPlot = x > margin && x <= margin + plotWidth && y < baseline && y >= baseline - plotHeight;
    if (inPlot && (baseline - y) % gridStep === 0) return GRID;
    return BACKGROUND;
  });
}
