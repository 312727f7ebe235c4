import { asc, eq, sql } from 'drizzle-orm';
import type { TDeliveryLogEntry } from '#shared/contract/operations.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { groupedWrites } from '#server/db/grouped-writes.js';
import { runDeliveryLog } from '#server/db/schema.js';
import { preparedPerHandle } from '#server/db/prepared.js';
import { queryRows } from '#server/db/sql-helpers.js';
import { getSetting } from '../settings/service.js';

/** The first bytes of an answer or a callback body that a log entry keeps. */
const EXCERPT_BYTES = 2048;

/**
 * Values that must never reach the log, whatever the service echoes back: per-run tokens, signing secrets,
 * API keys, bearer credentials and the values of fields named like secrets. The patterns run on the excerpt
 * only (2 KB), after it was cut, so a secret split by the cut is still caught by the key-name rule or by
 * its own prefix.
 */
const REDACTIONS: [RegExp, string][] = [
  // JSON fields and form fields whose name says they hold a secret: "secret_token": "…", token=…
  [
    /("?(?:[a-z_-]*(?:secret|token|password|passwd|api[_-]?key|authorization|signature|credential)[a-z_-]*)"?\s*[:=]\s*"?)([^"&,\s}]+)/gi,
    '$1[redacted]',
  ],
  [/\bwhsec_[A-Za-z0-9+/=]+/g, '[redacted]'],
  [/\bflj_[A-Za-z0-9_-]+/g, '[redacted]'],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
];

/** The first 2 KB of a text with secrets and tokens blanked (decision 144). */
function redactExcerpt(text: string): string {
  let excerpt = Buffer.from(text, 'utf8').subarray(0, EXCERPT_BYTES).toString('utf8');
  // A multi-byte character cut in two decodes as U+FFFD: drop it rather than show a broken character.
  excerpt = excerpt.replace(/\uFFFD$/, '');
  for (const [pattern, replacement] of REDACTIONS) excerpt = excerpt.replace(pattern, replacement);
  return excerpt;
}

export interface DeliveryLogInput {
  executionId: string;
  kind: 'call' | 'callback';
  at: Date;
  attempt?: number | null;
  httpStatus?: number | null;
  outcome: string;
  error?: string | null;
  latencyMs?: number | null;
  responseBytes?: number | null;
  /** Unredacted: cut and redacted here. */
  body?: string | null;
}

/**
 * Appends an entry to a run's log, unless the run already holds `delivery_log_entries_per_run` entries (the
 * first ones are kept: they show how the trouble began, and a flood of forged callbacks cannot push them
 * out). Entries written at about the same time go in one statement (groupedWrites), which counts each run's
 * entries in the table and those before it in the statement against the bound; two statements at once may
 * pass it by one, which is harmless. A run that no longer exists gets nothing (the insert joins it).
 */
export async function recordDelivery(db: Db, entry: DeliveryLogInput): Promise<void> {
  await appendGrouped(db, {
    executionId: entry.executionId,
    kind: entry.kind,
    at: entry.at.toISOString(),
    attempt: entry.attempt ?? null,
    httpStatus: entry.httpStatus ?? null,
    outcome: entry.outcome,
    error: entry.error?.slice(0, 1000) ?? null,
    latencyMs: entry.latencyMs === undefined || entry.latencyMs === null ? null : Math.round(entry.latencyMs),
    responseBytes: entry.responseBytes ?? null,
    excerpt: entry.body ? redactExcerpt(entry.body) : null,
  });
}

/** An entry as the statement takes it (one array of each column): the log's entry as the API shows it, and its run. */
type EntryRow = Omit<TDeliveryLogEntry, 'id'> & { executionId: string };

const appendGrouped = groupedWrites<EntryRow>(async (db, rows) => {
  const max = await getSetting(db, 'delivery_log_entries_per_run');
  const of = <K extends keyof EntryRow>(key: K) => rows.map((r) => r[key]);
  await appendEntries(db).execute({
    executionIds: of('executionId'),
    kinds: of('kind'),
    ats: of('at'),
    attempts: of('attempt'),
    httpStatuses: of('httpStatus'),
    outcomes: of('outcome'),
    errors: of('error'),
    latencies: of('latencyMs'),
    sizes: of('responseBytes'),
    excerpts: of('excerpt'),
    max,
  });
}, 200);

const p = (name: string, type: string) => sql`${sql.placeholder(name)}::${sql.raw(type)}[]`;

/** Written for every call and callback, so prepared once per connection (the insert is the CTE's). */
const appendEntries = preparedPerHandle((db) => {
  const log = runDeliveryLog;
  const entries = db.$with('entries', { id: sql<number>`${sql.identifier('id')}`.as('id') }).as(sql`
    insert into ${log} (execution_id, kind, at, attempt, http_status, outcome, error, latency_ms,
      response_bytes, excerpt)
    select e.execution_id, e.kind, e.at, e.attempt, e.http_status, e.outcome, e.error, e.latency_ms,
      e.response_bytes, e.excerpt
    from (select e.*, row_number() over (partition by e.execution_id order by e.nth) as place
          from unnest(${p('executionIds', 'uuid')}, ${p('kinds', 'text')}, ${p('ats', 'timestamptz')},
            ${p('attempts', 'int')}, ${p('httpStatuses', 'int')}, ${p('outcomes', 'text')}, ${p('errors', 'text')},
            ${p('latencies', 'int')}, ${p('sizes', 'int')}, ${p('excerpts', 'text')}) with ordinality
            as e(execution_id, kind, at, attempt, http_status, outcome, error, latency_ms, response_bytes, excerpt,
              nth)) e
    join workflow_executions r on r.id = e.execution_id
    where (select count(*) from ${log} l where l.execution_id = e.execution_id) + e.place
      <= ${sql.placeholder('max')}::int
    order by e.nth
    returning id`);
  return db.with(entries).select({ id: entries.id }).from(entries).prepare('delivery_log_append');
});

/** A run's log, oldest first. */
export async function deliveryLogOf(db: DbOrTx, executionId: string): Promise<TDeliveryLogEntry[]> {
  const rows = await db
    .select()
    .from(runDeliveryLog)
    .where(eq(runDeliveryLog.executionId, executionId))
    .orderBy(asc(runDeliveryLog.id))
    .limit(500);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    at: r.at.toISOString(),
    attempt: r.attempt,
    httpStatus: r.httpStatus,
    outcome: r.outcome,
    error: r.error,
    latencyMs: r.latencyMs,
    responseBytes: r.responseBytes,
    excerpt: r.excerpt,
  }));
}

/** The last errors of a workflow's runs' logs (for the alert mail): "HTTP 500: …" or the network error. */
export async function lastErrorsOf(db: DbOrTx, workflowId: string, count = 5): Promise<string[]> {
  const rows = await queryRows<{ http_status: number | null; error: string | null; excerpt: string | null }>(
    db,
    sql`
    select l.http_status, l.error, l.excerpt
    from (select id from workflow_executions where workflow_id = ${workflowId}::uuid
          order by created_at desc limit 20) r
    join ${runDeliveryLog} l on l.execution_id = r.id
    where l.outcome in ('error', 'blocked', 'refused')
    order by l.id desc limit ${count}`,
  );
  const fromLog = rows.map((r) => {
    const head = r.http_status ? `HTTP ${r.http_status}` : 'error';
    const detail = (r.error ?? r.excerpt ?? '').replace(/\s+/g, ' ').slice(0, 200);
    return detail ? `${head}: ${detail}` : head;
  });
  if (fromLog.length >= count) return fromLog;
  // A service that answers 200 with `status: "failed"` leaves no failed call: its runs' own words say it.
  const failed = await queryRows<{ error_code: string | null; error_message: string | null }>(
    db,
    sql`select error_code, error_message from workflow_executions
        where workflow_id = ${workflowId}::uuid and status in ('failed', 'expired') and completed_at is not null
        order by completed_at desc limit ${count - fromLog.length}`,
  );
  return fromLog.concat(
    failed.map((r) => `${r.error_code ?? 'failed'}: ${(r.error_message ?? '').slice(0, 200)}`),
  );
}
