import { Readable } from 'node:stream';
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { TLedgerExportQuery, TRunsExportQuery } from '#shared/contract/insights.js';
import { ledgerNoteText } from '#shared/i18n/ledger-notes.js';
import type { Db } from '#server/db/client.js';
import { ts } from '#server/db/sql-helpers.js';
import { iso, isoOrNull } from '#server/lib/dates.js';
import { creditTransactions, userProfiles, userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { writeAudit } from './audit.js';
import { dayRange, type DayRange } from './insights.js';
import { ledgerListFilter, runListFilter } from './lists.js';

/*
 * CSV exports of runs and ledger rows. The rows are read in pages of EXPORT_BATCH_ROWS in (created_at, id)
 * order, each page one short query that starts after the last row sent (keyset paging: no open cursor holds
 * a pooled connection or a PGlite's only one for the whole download), and written to the answer only as fast
 * as the client reads it (a Readable pulls the next page when the last one has drained). Memory stays at one
 * page whatever the range: bench/exports.ts measures a million rows.
 */
export const EXPORT_BATCH_ROWS = 2000;

/**
 * The answer is written in pieces of about this many characters, not a page at a time: a page's text (half a
 * megabyte) is a large object to V8, kept until a full collection, so a year's export grew the server by about
 * 100 MB; pieces this size die young (bench/FINDINGS.md).
 */
const CHUNK_CHARS = 32 * 1024;

/** A text cell quoted for CSV, and defused for spreadsheets: a leading = + - @ or tab would be a formula. */
function textCell(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
const numberCell = (value: number | string | null | undefined) =>
  value === null || value === undefined ? '' : String(value);
const line = (cells: string[]) => `${cells.join(',')}\r\n`;

/** The UTF-8 byte order mark: spreadsheet programs then read accents right. */
const BOM = '\uFEFF';

/** Each page's keyset: the last row's created_at exactly as the database wrote it (microseconds) and its id. */
interface Cursor {
  at: string;
  id: string;
}

const after = (createdAt: AnyPgColumn, id: AnyPgColumn, cursor: Cursor | null): SQL | undefined =>
  // The plain bound lets the created_at index start at the cursor; the row comparison breaks ties by id.
  cursor
    ? sql`${createdAt} >= ${cursor.at}::timestamptz and (${createdAt}, ${id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
    : undefined;

/** Pages of rows through `page(cursor)` as CSV text, header first, pulled by the answer's reader. */
function csvStream<R extends { cursorAt: string; id: string }>(
  header: string[],
  page: (cursor: Cursor | null) => Promise<R[]>,
  toCells: (row: R) => string[],
): Readable {
  async function* lines() {
    yield BOM + line(header);
    let cursor: Cursor | null = null;
    for (;;) {
      const rows = await page(cursor);
      if (rows.length === 0) return;
      let chunk: string[] = [];
      let chars = 0;
      for (const row of rows) {
        const text = line(toCells(row));
        chunk.push(text);
        chars += text.length;
        if (chars >= CHUNK_CHARS) {
          yield chunk.join('');
          chunk = [];
          chars = 0;
        }
      }
      if (chunk.length > 0) yield chunk.join('');
      const last = rows[rows.length - 1]!;
      cursor = { at: last.cursorAt, id: last.id };
      if (rows.length < EXPORT_BATCH_ROWS) return;
    }
  }
  return Readable.from(lines(), { objectMode: false, highWaterMark: 1 });
}

/** Oldest first, written as the backward walk of the lists' `(created_at desc nulls last, id desc nulls last)` index. */
const oldestFirst = (createdAt: AnyPgColumn, id: AnyPgColumn) =>
  sql`${createdAt} asc nulls first, ${id} asc nulls first`;

const inRange = (column: AnyPgColumn, range: DayRange) =>
  and(gte(column, sql`${ts(range.start)}`), lt(column, sql`${ts(range.end)}`));

export interface Export {
  filename: string;
  body: Readable;
}

/** Records the download in the audit log (its own transaction: the export itself changes nothing). */
async function auditExport(
  db: Db,
  adminId: string,
  kind: 'runs' | 'ledger',
  details: Record<string, unknown>,
) {
  await db.transaction((tx) =>
    writeAudit(tx, { adminId, action: 'data_exported', targetType: 'export', targetId: kind, details }),
  );
}

const RUN_HEADER = [
  'id',
  'created_at',
  'completed_at',
  'status',
  'origin',
  'workflow_id',
  'workflow_name_en',
  'workflow_name_es',
  'user_id',
  'user_email',
  'credits_used',
  'execution_time_ms',
  'error_code',
  'error_message',
  'output_type',
];

/** Runs of the range that pass the run list's filters, oldest first, as CSV. */
export async function exportRuns(db: Db, adminId: string, query: TRunsExportQuery): Promise<Export> {
  const range = dayRange(query.from, query.to);
  const where = and(
    inRange(workflowExecutions.createdAt, range),
    await runListFilter(db, query),
    query.workflowId ? eq(workflowExecutions.workflowId, query.workflowId) : undefined,
  );
  await auditExport(db, adminId, 'runs', { ...query });
  const page = (cursor: Cursor | null) =>
    db
      .select({
        id: workflowExecutions.id,
        cursorAt: sql<string>`${workflowExecutions.createdAt}::text`,
        createdAt: workflowExecutions.createdAt,
        completedAt: workflowExecutions.completedAt,
        status: workflowExecutions.status,
        origin: workflowExecutions.origin,
        workflowId: workflowExecutions.workflowId,
        workflowName: userWorkflows.name,
        userId: workflowExecutions.userId,
        userEmail: userProfiles.email,
        creditsUsed: workflowExecutions.creditsUsed,
        executionTimeMs: workflowExecutions.executionTimeMs,
        errorCode: workflowExecutions.errorCode,
        errorMessage: workflowExecutions.errorMessage,
        outputType: workflowExecutions.outputType,
      })
      .from(workflowExecutions)
      .leftJoin(userWorkflows, eq(userWorkflows.id, workflowExecutions.workflowId))
      .leftJoin(userProfiles, eq(userProfiles.id, workflowExecutions.userId))
      .where(and(where, after(workflowExecutions.createdAt, workflowExecutions.id, cursor)))
      .orderBy(oldestFirst(workflowExecutions.createdAt, workflowExecutions.id))
      .limit(EXPORT_BATCH_ROWS);
  return {
    filename: `flujo-runs-${range.from}-${range.to}.csv`,
    body: csvStream(RUN_HEADER, page, (r) => [
      r.id,
      iso(r.createdAt),
      isoOrNull(r.completedAt) ?? '',
      r.status,
      r.origin,
      r.workflowId,
      textCell(r.workflowName?.en),
      textCell(r.workflowName?.es),
      r.userId,
      textCell(r.userEmail),
      numberCell(r.creditsUsed),
      numberCell(r.executionTimeMs),
      r.errorCode ?? '',
      textCell(r.errorMessage),
      r.outputType ?? '',
    ]),
  };
}

const LEDGER_HEADER = [
  'id',
  'created_at',
  'type',
  'amount',
  'usd_amount',
  'plan_name',
  'user_id',
  'user_email',
  'workflow_id',
  'workflow_name_en',
  'execution_id',
  'note',
];

/** Ledger rows of the range that pass the ledger list's filters, oldest first, as CSV (notes in English). */
export async function exportLedger(db: Db, adminId: string, query: TLedgerExportQuery): Promise<Export> {
  const range = dayRange(query.from, query.to);
  const where = and(
    inRange(creditTransactions.createdAt, range),
    await ledgerListFilter(db, query),
    query.workflowId ? eq(creditTransactions.workflowId, query.workflowId) : undefined,
  );
  await auditExport(db, adminId, 'ledger', { ...query });
  const page = (cursor: Cursor | null) =>
    db
      .select({
        id: creditTransactions.id,
        cursorAt: sql<string>`${creditTransactions.createdAt}::text`,
        createdAt: creditTransactions.createdAt,
        type: creditTransactions.transactionType,
        amount: creditTransactions.amount,
        usdAmount: creditTransactions.usdAmount,
        planName: creditTransactions.planName,
        userId: creditTransactions.userId,
        userEmail: userProfiles.email,
        workflowId: creditTransactions.workflowId,
        workflowName: userWorkflows.name,
        executionId: creditTransactions.executionId,
        notes: creditTransactions.notes,
        noteKind: creditTransactions.noteKind,
        noteParams: creditTransactions.noteParams,
      })
      .from(creditTransactions)
      .leftJoin(userWorkflows, eq(userWorkflows.id, creditTransactions.workflowId))
      .leftJoin(userProfiles, eq(userProfiles.id, creditTransactions.userId))
      .where(and(where, after(creditTransactions.createdAt, creditTransactions.id, cursor)))
      .orderBy(oldestFirst(creditTransactions.createdAt, creditTransactions.id))
      .limit(EXPORT_BATCH_ROWS);
  return {
    filename: `flujo-ledger-${range.from}-${range.to}.csv`,
    body: csvStream(LEDGER_HEADER, page, (r) => [
      r.id,
      iso(r.createdAt),
      r.type,
      numberCell(r.amount),
      numberCell(r.usdAmount),
      textCell(r.planName),
      r.userId,
      textCell(r.userEmail),
      r.workflowId ?? '',
      textCell(r.workflowName?.en),
      r.executionId ?? '',
      textCell(ledgerNoteText('en', { kind: r.noteKind, params: r.noteParams, notes: r.notes })),
    ]),
  };
}
