import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromProjectRoot } from './lib/project-root.js';

/*
 * The decision records' index (docs/decisions/README.md) against the records themselves (decision 138): every
 * record has its row, every row its record, and a record that amends another is named on that one's status line.
 */

const DIR = fromProjectRoot('docs/decisions');

interface DecisionRecord {
  number: string;
  file: string;
  title: string;
  date: string;
  status: string;
  /** Records this one's status line says amended or superseded it. */
  changedBy: string[];
  /** Records this one's status line says it amends or supersedes. */
  changes: string[];
}

function readRecord(file: string): DecisionRecord {
  const text = readFileSync(join(DIR, file), 'utf8');
  const number = file.slice(0, 3);
  const title = new RegExp(`^# ${number}: (.+)$`, 'm').exec(text)?.[1];
  const date = /Date: (\d{4}-\d{2}-\d{2})/.exec(text)?.[1];
  const statusAt = text.indexOf('Status:');
  expect(title && date && statusAt > 0, `${file}: a "# ${number}: title", a date and a status`).toBeTruthy();
  const line = text
    .slice(statusAt + 'Status:'.length)
    .split(/\n\s*\n/)[0]!
    .replace(/\s+/g, ' ');
  const by = /(amended|superseded) by/i.exec(line);
  return {
    number,
    file,
    title: title!,
    date: date!,
    status: /^\s*(\w+)/.exec(line)![1]!.toLowerCase(),
    changedBy: by
      ? [...new Set([...line.slice(by.index).matchAll(/\[(\d{3})\]/g)].map((m) => m[1]!))].sort()
      : [],
    // What it changes is said before what changed it (the latter's own words may say "supersedes").
    changes: [...line.slice(0, by?.index).matchAll(/\b(?:amends|supersedes)\b[^.;]*?\[?(\d{3})\b/gi)].map(
      (m) => m[1]!,
    ),
  };
}

const rowOf = (r: DecisionRecord) =>
  `| [${r.number}](${r.file}) | ${r.title} | ${r.date} | ${r.status} | ${r.changedBy.join(', ')} |`;

describe('the decision records', () => {
  const records = readdirSync(DIR)
    .filter((file) => /^\d{3}-[a-z0-9-]+\.md$/.test(file))
    .map(readRecord);
  const byNumber = new Map(records.map((r) => [r.number, r]));

  it('are each accepted or superseded, and one number is one record', () => {
    expect(records.length).toBeGreaterThan(70);
    expect(records.filter((r) => !['accepted', 'superseded'].includes(r.status)).map((r) => r.file)).toEqual(
      [],
    );
    expect(byNumber.size).toBe(records.length);
  });

  it('each name, on their status line, the records that amended or superseded them', () => {
    const missing = records.flatMap((r) =>
      r.changes
        .filter((n) => byNumber.has(n) && !byNumber.get(n)!.changedBy.includes(r.number))
        .map((n) => `${n} does not name ${r.number}, which amends it`),
    );
    expect(missing).toEqual([]);
  });

  it('are each listed in the index with their date, status and the records that changed them', () => {
    const index = readFileSync(join(DIR, 'README.md'), 'utf8');
    const rows = index.split('\n').filter((line) => /^\| \[\d{3}\]/.test(line));
    // The message is the rows to add or correct.
    expect(records.map(rowOf).filter((row) => !rows.includes(row))).toEqual([]);
    expect(rows.filter((row) => !records.map(rowOf).includes(row))).toEqual([]);
  });
});
