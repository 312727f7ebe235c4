/** One CSV field per RFC 4180: quoted when it holds a comma, quote or line break. */
function field(value: string | number): string {
  let text = String(value);
  // A leading =, +, - or @ makes spreadsheets evaluate the cell as a formula (CSV injection).
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text with CRLF line ends and a UTF-8 byte-order mark, so Excel shows accents correctly. */
export function csvFile(rows: Array<Array<string | number>>): Buffer {
  const text = rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
  return Buffer.from(`\uFEFF${text}`, 'utf8');
}
