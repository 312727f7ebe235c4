const PAGE_WIDTH = 595; // A4 in points
const PAGE_HEIGHT = 842;
const MARGIN = 56;
const LINE_HEIGHT = 16;
const LINES_PER_PAGE = Math.floor((PAGE_HEIGHT - MARGIN * 2) / LINE_HEIGHT) - 2;
const WRAP_AT = 88;

export interface PdfLine {
  text: string;
  bold?: boolean;
}

/** Text in the PDF's WinAnsi (Latin-1 for the letters Spanish and English need); others become "?". */
function pdfString(text: string): string {
  const latin1 = [...text].map((ch) => (ch.charCodeAt(0) <= 0xff && ch.length === 1 ? ch : '?')).join('');
  // eslint-disable-next-line no-control-regex -- control characters have no place in a text line
  return latin1.replace(/[\u0000-\u001f]/g, ' ').replace(/[\\()]/g, (c) => `\\${c}`);
}

/** Splits long lines at spaces so each fits the page width of Helvetica 11 pt. */
export function wrapLines(lines: PdfLine[], width = WRAP_AT): PdfLine[] {
  const out: PdfLine[] = [];
  for (const line of lines) {
    const words = line.text.split(/\s+/).filter(Boolean);
    if (words.length === 0) {
      out.push({ text: '', bold: line.bold });
      continue;
    }
    let current = '';
    for (const word of words) {
      const piece = word.length > width ? word.slice(0, width) : word;
      if (current && current.length + 1 + piece.length > width) {
        out.push({ text: current, bold: line.bold });
        current = piece;
      } else {
        current = current ? `${current} ${piece}` : piece;
      }
    }
    out.push({ text: current, bold: line.bold });
  }
  return out;
}

/**
 * A small valid PDF 1.4 document: a title and lines of text in Helvetica, over as many A4 pages as needed.
 * Written by hand (objects, xref table with exact byte offsets, trailer) so no library is needed.
 */
export function pdfDocument(title: string, lines: PdfLine[]): Buffer {
  const wrapped = wrapLines(lines);
  const pages: PdfLine[][] = [];
  for (let i = 0; i < Math.max(wrapped.length, 1); i += LINES_PER_PAGE) {
    pages.push(wrapped.slice(i, i + LINES_PER_PAGE));
  }
  // Objects: 1 catalog, 2 pages, 3 regular font, 4 bold font, then a page and its content per page.
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 5 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  pages.forEach((pageLines, i) => {
    const pageId = 5 + i * 2;
    let y = PAGE_HEIGHT - MARGIN;
    const ops: string[] = [];
    if (i === 0) {
      ops.push(`BT /F2 18 Tf ${MARGIN} ${y} Td (${pdfString(title)}) Tj ET`);
      y -= LINE_HEIGHT * 2;
    }
    for (const line of pageLines) {
      ops.push(`BT /${line.bold ? 'F2' : 'F1'} 11 Tf ${MARGIN} ${y} Td (${pdfString(line.text)}) Tj ET`);
      y -= LINE_HEIGHT;
    }
    const stream = ops.join('\n');
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] =
      `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });

  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id += 1) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefAt = Buffer.byteLength(body, 'latin1');
  const count = objects.length;
  body += `xref\n0 ${count}\n0000000000 65535 f \n`;
  for (let id = 1; id < count; id += 1) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
