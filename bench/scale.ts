import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/server/db/sql-helpers.js';
import { NO_DEVICE } from '../src/server/lib/device.js';
import { openSession } from '../src/server/modules/auth/service.js';
import { ledgerMismatches } from '../src/server/test/ledger-check.js';
import { foldHealthNotes } from '../src/server/modules/operations/service.js';
import { retallyAll } from '../src/server/modules/admin/insight-tallies.js';
import { PG_ADMIN_URL, PLANS_DIR, PORTS, WORK_DIR, pgUrl as pgUrlOf } from './lib/paths.js';
import { createDatabase, dropDatabase, withPg } from './lib/pg.js';
import type { SectionResult } from './lib/results.js';
import { ADMIN_EMAIL, HEAVY_USER, seedScale, typicalUser } from './lib/scale-seed.js';
import { openTarget } from './lib/seed.js';
import { startServer, type DatabaseTarget, type RunningServer } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { median, round, sleep } from './lib/stats.js';

// BENCH_SCALE_DATABASE lets two checkouts run this section at once (with BENCH_PORT apart).
const DATABASE = process.env.BENCH_SCALE_DATABASE ?? 'flujo_bench_scale';
const BUDGET_MS = 100;
/** Where Debian's PostgreSQL writes its log; auto_explain's plans land there. */
const PG_LOG = process.env.BENCH_PG_LOG ?? '/var/log/postgresql/postgresql-15-main.log';
/** Tables big enough that a sequential scan of them is a finding. */
const BIG_TABLES = [
  'users',
  'user_profiles',
  'sessions',
  'workflow_executions',
  'credit_transactions',
  'admin_audit_logs',
];

interface Endpoint {
  name: string;
  path: string;
  who: 'admin' | 'heavy' | 'typical';
}

const ENDPOINTS: Endpoint[] = [
  { name: 'my executions (most active user)', path: '/api/executions', who: 'heavy' },
  { name: 'my executions (typical user)', path: '/api/executions', who: 'typical' },
  { name: 'my transactions (most active user)', path: '/api/credits/transactions', who: 'heavy' },
  { name: 'my transactions, filter usage', path: '/api/credits/transactions?type=usage', who: 'heavy' },
  { name: 'my transactions (typical user)', path: '/api/credits/transactions', who: 'typical' },
  { name: 'admin users', path: '/api/admin/users', who: 'admin' },
  { name: 'admin users, search', path: '/api/admin/users?q=user4242', who: 'admin' },
  { name: 'admin users, search by name', path: '/api/admin/users?q=lucia%20gomez', who: 'admin' },
  { name: 'admin users, search inside the address', path: '/api/admin/users?q=r4242%40bench', who: 'admin' },
  { name: 'admin users, search without accents', path: '/api/admin/users?q=rez', who: 'admin' },
  { name: 'admin workflows', path: '/api/admin/workflows', who: 'admin' },
  { name: 'admin workflows, search', path: '/api/admin/workflows?q=payroll&status=active', who: 'admin' },
  { name: 'admin executions', path: '/api/admin/executions', who: 'admin' },
  { name: 'admin executions, status', path: '/api/admin/executions?status=failed', who: 'admin' },
  { name: 'admin executions, search', path: '/api/admin/executions?q=user777', who: 'admin' },
  { name: 'admin credits', path: '/api/admin/credits', who: 'admin' },
  { name: 'admin credits, type', path: '/api/admin/credits?type=refund', who: 'admin' },
  { name: 'admin credits, search', path: '/api/admin/credits?q=user4242', who: 'admin' },
  { name: 'admin audit', path: '/api/admin/audit', who: 'admin' },
  { name: 'admin audit, action', path: '/api/admin/audit?action=credits_adjusted', who: 'admin' },
  { name: 'admin audit, search part of an action', path: '/api/admin/audit?q=suspend', who: 'admin' },
  // Insights over the seeded runs (one every 30 s up to now): a day is about 2,900 runs, a month about 86,000.
  { name: 'admin insights, day', path: '/api/admin/insights?period=day', who: 'admin' },
  { name: 'admin insights, week', path: '/api/admin/insights?period=week', who: 'admin' },
  { name: 'admin insights, month', path: '/api/admin/insights?period=month', who: 'admin' },
  {
    name: 'admin insights, last 30 days',
    path: `/api/admin/insights?period=custom&${daysBack(29)}`,
    who: 'admin',
  },
  // A year (3M ledger rows) takes seconds: too slow for the 23 timed requests of this list (decision 150).
];

/** `from` `days` before today and `to` today (UTC), as a query string. */
function daysBack(days: number): string {
  const today = Date.now();
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `from=${day(today - days * 24 * 3600_000)}&to=${day(today)}`;
}

async function timeEndpoint(server: RunningServer, e: Endpoint, cookie: string, samples: number) {
  const times: number[] = [];
  let status = 0;
  let rows = 0;
  let total = '';
  for (let i = 0; i < samples + 2; i++) {
    const started = performance.now();
    const res = await fetch(server.url + e.path, {
      headers: { cookie: `flujo_session=${cookie}` },
      signal: AbortSignal.timeout(30_000),
    });
    const body = await res.text();
    const ms = performance.now() - started;
    status = res.status;
    if (res.ok) {
      const parsed = JSON.parse(body) as unknown;
      rows = Array.isArray(parsed) ? parsed.length : 1;
    }
    total = res.headers.get('x-total-count') ?? '';
    if (i >= 2) times.push(ms); // the first two warm the caches and the connection up
  }
  return { median: median(times), status, rows, total };
}

/**
 * The CSV exports streamed whole: a month of runs first (its memory reported, not checked: the server's heap
 * grows to its working size on the first large answer whatever its length), then every run of the last year,
 * twelve times the rows, and a month of ledger rows, each checked against the memory before it.
 */
const EXPORTS = [
  { path: `/api/admin/exports/runs?${daysBack(29)}`, table: 'workflow_executions', days: 29, warmUp: true },
  {
    path: `/api/admin/exports/runs?${daysBack(365)}`,
    table: 'workflow_executions',
    days: 365,
    warmUp: false,
  },
  {
    path: `/api/admin/exports/ledger?${daysBack(29)}`,
    table: 'credit_transactions',
    days: 29,
    warmUp: false,
  },
];
/** What streaming may add to the server's memory, whatever the number of rows: a page or two in flight. */
const EXPORT_RSS_BUDGET_MB = 64;

interface ExportRun {
  path: string;
  warmUp: boolean;
  status: number;
  rows: number;
  expected: number;
  megabytes: number;
  seconds: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

/**
 * Streams one export to its end, reading as fast as the client can, counting the lines, while the server's
 * resident memory is sampled; compares the row count with the database's.
 */
async function timeExport(
  server: RunningServer,
  e: (typeof EXPORTS)[number],
  cookie: string,
): Promise<ExportRun> {
  const from = /from=([\d-]+)/.exec(e.path)![1]!;
  const to = /to=([\d-]+)/.exec(e.path)![1]!;
  const expected = await withPg(pgUrlOf(DATABASE), async (c) => {
    const r = await c.query<{ n: string }>(
      `select count(*) as n from ${e.table} where created_at >= $1::date and created_at < $2::date + 1`,
      [from, to],
    );
    return Number(r.rows[0]!.n);
  });
  const rssBeforeMb = server.rssMb();
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, server.rssMb());
  }, 100);
  const started = performance.now();
  let bytes = 0;
  let newlines = 0;
  const res = await fetch(server.url + e.path, {
    headers: { cookie: `flujo_session=${cookie}` },
    signal: AbortSignal.timeout(600_000),
  });
  const status = res.status;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) newlines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  rssPeakMb = Math.max(rssPeakMb, server.rssMb());
  // Every line ends with CRLF; the first is the header. A newline inside a quoted cell would count twice, and
  // the seeded data has none.
  return {
    path: e.path,
    warmUp: e.warmUp,
    status,
    rows: newlines - 1,
    expected,
    megabytes: bytes / 1e6,
    seconds,
    rssBeforeMb: Math.round(rssBeforeMb),
    rssPeakMb: Math.round(rssPeakMb),
  };
}

function readLogFrom(offset: number): string {
  const size = statSync(PG_LOG).size;
  if (size <= offset) return '';
  const fd = openSync(PG_LOG, 'r');
  const buffer = Buffer.alloc(size - offset);
  readSync(fd, buffer, 0, buffer.length, offset);
  closeSync(fd);
  return buffer.toString('utf8');
}

/** The auto_explain entries this database wrote, one per statement, with the statement and its plan. */
function plansIn(log: string): string[] {
  const entries = log.split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/);
  return entries
    .filter((entry) => entry.includes(`@${DATABASE} `) && entry.includes('Query Text:'))
    .map((entry) => entry.replace(/^.*?LOG:\s+/, ''));
}

/** Plans of every statement each endpoint sends, captured by auto_explain (ANALYZE) in PostgreSQL's log. */
async function capturePlans(
  target: DatabaseTarget,
  cookies: Record<Endpoint['who'], string>,
  dir: string,
  endpoints: Endpoint[],
): Promise<CapturedPlans> {
  const plans = new Map<string, string[]>();
  await withPg(PG_ADMIN_URL, (c) =>
    c.query(`alter database ${DATABASE} set session_preload_libraries = 'auto_explain';
      alter database ${DATABASE} set auto_explain.log_min_duration = 0;
      alter database ${DATABASE} set auto_explain.log_analyze = on;
      alter database ${DATABASE} set auto_explain.log_timing = on;`),
  );
  const server = await startServer({
    database: target,
    port: PORTS.server,
    logFile: join(dir, 'server-plans.log'),
  });
  let jobs: string[];
  try {
    // Every job runs within a second of the start: what the database sees now, with no request, is theirs.
    const idleFrom = statSync(PG_LOG).size;
    await sleep(2500);
    jobs = plansIn(readLogFrom(idleFrom));
    for (const e of endpoints) {
      const get = () =>
        fetch(server.url + e.path, { headers: { cookie: `flujo_session=${cookies[e.who]}` } });
      await (await get()).text();
      await sleep(300);
      const offset = statSync(PG_LOG).size;
      await (await get()).text();
      await sleep(500);
      plans.set(e.name, plansIn(readLogFrom(offset)));
    }
  } finally {
    await server.stop();
    await withPg(PG_ADMIN_URL, (c) => c.query(`alter database ${DATABASE} reset all`));
  }
  return { byEndpoint: plans, jobs };
}

interface CapturedPlans {
  byEndpoint: Map<string, string[]>;
  /** Statements of the background jobs, seen while no request was in flight. */
  jobs: string[];
}

const statementOf = (plan: string) => /Query Text: (.*)/.exec(plan)?.[1] ?? '';

/** A job's statement caught in a request's window: a shape the jobs sent while idle, or a job queue claim. */
function isJobStatement(plan: string, jobs: Set<string>): boolean {
  const text = statementOf(plan);
  return jobs.has(text) || /for update skip locked/i.test(text);
}

/** Sequential scans of big tables in a set of plans: each is a list that will slow down as data grows. */
function seqScans(plans: string[]): string[] {
  const found = new Set<string>();
  for (const plan of plans) {
    for (const m of plan.matchAll(/Seq Scan on (\w+)/g)) if (BIG_TABLES.includes(m[1]!)) found.add(m[1]!);
  }
  return [...found];
}

/** 100k users, 5k workflows, 1M runs, 3M ledger rows on PostgreSQL; each list under 100 ms, plans captured. */
/**
 * Issue 26's data on the seeded runs (decisions 144, 145, 166): every ended run noted for health and folded into
 * the daily tallies by the app's own fold (as the health job does, 10,000 notes a pass); the insights' daily
 * tallies of every day that is over (the seed writes into past days, after migration 0035's backfill ran on
 * an empty database); and a full delivery log (50 entries) on the busiest workflow's newest run. Answers the
 * busiest workflow and that run.
 */
async function seedOperations(db: Awaited<ReturnType<typeof openTarget>>['db']) {
  const started = performance.now();
  await db.execute(sql`insert into workflow_health_notes (workflow_id, ended_at, outcome, duration_ms)
    select workflow_id, completed_at,
      case when status = 'completed' then 'completed' when error_code = 'workflow_refused' then 'refused'
        else status end,
      case when status = 'completed' then execution_time_ms end
    from workflow_executions
    where completed_at is not null and status in ('completed', 'failed', 'expired')`);
  for (;;) {
    await foldHealthNotes(db);
    const [left] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from workflow_health_notes`,
    );
    if (!left || left.n === 0) break;
  }
  const tallyStarted = performance.now();
  await retallyAll(db, new Date());
  // As autovacuum would soon after such a write: statistics for the planner, the visibility map for index-only
  // scans.
  await db.execute(sql`vacuum analyze insight_run_days, insight_ledger_days`);
  const tallySeconds = (performance.now() - tallyStarted) / 1000;
  const [busiest] = await queryRows<{ workflow_id: string; run_id: string }>(
    db,
    sql`select w.workflow_id, (select id from workflow_executions r where r.workflow_id = w.workflow_id
          order by created_at desc limit 1) as run_id
        from (select workflow_id, count(*) from workflow_executions group by 1 order by 2 desc limit 1) w`,
  );
  if (!busiest) throw new Error('no runs seeded');
  await db.execute(sql`insert into run_delivery_log (execution_id, kind, at, attempt, http_status, outcome,
      latency_ms, response_bytes, excerpt)
    select ${busiest.run_id}::uuid, 'call', now(), g, 500, 'error', 120, 2048, repeat('x', 2048)
    from generate_series(1, 50) g`);
  return {
    workflowId: busiest.workflow_id,
    runId: busiest.run_id,
    seconds: (performance.now() - started) / 1000,
    tallySeconds,
  };
}

function operationsEndpoints(o: { workflowId: string; runId: string }): Endpoint[] {
  return [
    {
      name: 'admin workflow health (busiest workflow)',
      path: `/api/admin/workflows/${o.workflowId}/health`,
      who: 'admin',
    },
    { name: 'admin run detail (50 log entries)', path: `/api/admin/executions/${o.runId}`, who: 'admin' },
    { name: 'admin workflows, by health', path: '/api/admin/workflows?sort=health', who: 'admin' },
    { name: 'admin open incidents', path: '/api/admin/incidents', who: 'admin' },
    { name: 'catalogue with health', path: '/api/workflows/public', who: 'typical' },
  ];
}

export async function benchScale(settings: Settings): Promise<SectionResult> {
  const size = settings.scale;
  const section: SectionResult = {
    id: 'scale',
    title: `Scale of data on PostgreSQL (${size.users} users, ${size.workflows} workflows, ${size.runs} runs, ${size.ledgerRows} ledger rows)`,
    ranAt: new Date().toISOString(),
    quick: settings.quick,
    command: 'npm run bench -- scale',
    checks: [],
    notes: [],
    details: [],
  };
  const dir = join(WORK_DIR, 'scale');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const url = await createDatabase(DATABASE);
  const target: DatabaseTarget = { kind: 'postgres', url };
  try {
    await (await openTarget(target)).close();
    const seedStarted = performance.now();
    const report = await withPg(url, (c) => seedScale(c, size));
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    const database = await openTarget(target);
    const idOf = async (email: string) =>
      (
        await queryRows<{ id: string }>(database.db, sql`select id from user_profiles where email = ${email}`)
      )[0]!.id;
    const now = new Date();
    const cookies: Record<Endpoint['who'], string> = {
      admin: await openSession(database.db, await idOf(ADMIN_EMAIL), NO_DEVICE, now),
      heavy: await openSession(database.db, await idOf(`user${HEAVY_USER}@bench.example`), NO_DEVICE, now),
      typical: await openSession(
        database.db,
        await idOf(`user${typicalUser(size)}@bench.example`),
        NO_DEVICE,
        now,
      ),
    };
    const operations = await seedOperations(database.db);
    const endpoints = [...ENDPOINTS, ...operationsEndpoints(operations)];
    const mismatches = await ledgerMismatches(database.db);
    const heavyRuns = (
      await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from workflow_executions where user_id = (select id from user_profiles where email = ${`user${HEAVY_USER}@bench.example`})`,
      )
    )[0]!.n;
    await database.close();

    section.checks.push(
      {
        what: 'seeding time (INSERT ... SELECT generate_series, indexes rebuilt, VACUUM ANALYZE)',
        measured: `${round(seedSeconds)} s`,
        budget: 'minutes',
        pass: seedSeconds < 600,
      },
      {
        what: 'users whose balance differs from their ledger sum, or is negative',
        measured: String(mismatches.length),
        budget: '0',
        pass: mismatches.length === 0,
      },
    );
    section.details.push(
      `Issue 26's data: every ended run noted and folded into the daily health tallies, the insights' daily tallies of every day that is over (${round(operations.tallySeconds)} s of it), a 50-entry delivery log on the busiest workflow's newest run (${round(operations.seconds)} s).`,
      '',
      `Rows: ${Object.entries(report.totals)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')}; the most active user has ${heavyRuns} runs.`,
      '',
      `Seeding steps (s): ${report.steps.map((s) => `${s.step} ${s.seconds}`).join('; ')}.`,
    );

    const server = await startServer({
      database: target,
      port: PORTS.server,
      logFile: join(dir, 'server.log'),
    });
    const timings = new Map<string, Awaited<ReturnType<typeof timeEndpoint>>>();
    const exports: ExportRun[] = [];
    const loadBefore = loadavg()
      .map((l) => round(l, 2))
      .join(', ');
    try {
      for (const e of endpoints)
        timings.set(e.name, await timeEndpoint(server, e, cookies[e.who], settings.listSamples));
      for (const e of EXPORTS) exports.push(await timeExport(server, e, cookies.admin));
    } finally {
      await server.stop();
    }
    const loadAfter = loadavg()
      .map((l) => round(l, 2))
      .join(', ');
    // The machine may be shared: its load says how much of each figure is someone else's work.
    section.details.push(
      '',
      `Machine load (1, 5, 15 min averages, ${cpus().length} cores) when the timed requests began: ${loadBefore}; after the exports: ${loadAfter}.`,
    );
    for (const x of exports) {
      section.checks.push(
        {
          what: `GET ${x.path} (admin): ${x.rows} rows, ${round(x.megabytes, 1)} MB of CSV in ${round(x.seconds, 1)} s`,
          measured: `${Math.round(x.rows / x.seconds)} rows/s`,
          budget: 'reported',
          pass: x.status === 200 && x.rows === x.expected ? null : false,
        },
        {
          what: `server memory during that export (RSS sampled every 100 ms; before it: ${x.rssBeforeMb} MB)`,
          measured: `peak ${x.rssPeakMb} MB`,
          budget: x.warmUp ? 'reported (the first export)' : `< before + ${EXPORT_RSS_BUDGET_MB} MB`,
          pass: x.warmUp ? null : x.rssPeakMb < x.rssBeforeMb + EXPORT_RSS_BUDGET_MB,
        },
      );
    }

    const canReadLog = existsSync(PG_LOG);
    const captured: CapturedPlans = canReadLog
      ? await capturePlans(target, cookies, dir, endpoints)
      : { byEndpoint: new Map(), jobs: [] };
    const jobShapes = new Set(captured.jobs.map(statementOf));
    rmSync(PLANS_DIR, { recursive: true, force: true });
    mkdirSync(PLANS_DIR, { recursive: true });
    if (captured.jobs.length) {
      writeFileSync(
        join(PLANS_DIR, 'background-jobs.txt'),
        `Statements of the background jobs (run within a second of the start, then on their intervals)\n\n${captured.jobs.join('\n\n')}\n`,
      );
      const scans = seqScans(captured.jobs);
      section.checks.push({
        what: `background jobs' statements (plans/background-jobs.txt)`,
        measured: scans.length ? `Seq Scan on ${scans.join(', ')}` : 'indexes only',
        budget: 'reported',
        pass: null,
      });
    }
    for (const e of endpoints) {
      const t = timings.get(e.name)!;
      const endpointPlans = (captured.byEndpoint.get(e.name) ?? []).filter(
        (p) => !isJobStatement(p, jobShapes),
      );
      const scans = seqScans(endpointPlans);
      const file = `${e.name
        .replace(/[^a-z0-9]+/gi, '-')
        .replace(/-$/, '')
        .toLowerCase()}.txt`;
      if (endpointPlans.length) {
        writeFileSync(join(PLANS_DIR, file), `GET ${e.path} (${e.who})\n\n${endpointPlans.join('\n\n')}\n`);
      }
      const planNote = !canReadLog
        ? 'plans not captured'
        : scans.length
          ? `Seq Scan on ${scans.join(', ')}`
          : `indexes only (plans/${file})`;
      section.checks.push({
        what: `GET ${e.path} (${e.who === 'admin' ? 'admin' : `${e.who} user`}): ${t.rows} rows${t.total ? ` of ${t.total}` : ''}; ${planNote}`,
        measured: t.status === 200 ? `${round(t.median, 1)} ms` : `HTTP ${t.status}`,
        budget: `< ${BUDGET_MS} ms`,
        pass: t.status === 200 && t.median < BUDGET_MS,
      });
    }
    section.notes.push(
      `Each list: ${settings.listSamples} sequential requests through HTTP after 2 warm-up requests, median of the client-side time to the whole answer (keep-alive connection, server on its own core).`,
      'Plans: the server started again with auto_explain (log_min_duration 0, ANALYZE) set on the database, one request per list; every statement it sent is in bench/plans/, the session lookup included.',
      'Re-run: `npm run bench -- scale` (about 5-11 minutes; `--keep` keeps the database `flujo_bench_scale` to read plans; `BENCH_PORT` and `BENCH_SCALE_DATABASE` let it run beside another checkout).',
      'Data: deterministic (ids are md5 of the row number), skewed like real use (a squared hash picks users and workflows); the open runs are the newest 2,000 with an expiry in the future, so the sweeper has nothing to do during the measurement.',
    );
  } finally {
    if (!process.argv.includes('--keep')) await dropDatabase(DATABASE);
  }
  return section;
}
