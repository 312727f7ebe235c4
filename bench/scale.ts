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
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/server/db/sql-helpers.js';
import { openSession } from '../src/server/modules/auth/service.js';
import { ledgerMismatches } from '../src/server/test/ledger-check.js';
import { PG_ADMIN_URL, PLANS_DIR, PORTS, WORK_DIR } from './lib/paths.js';
import { createDatabase, dropDatabase, withPg } from './lib/pg.js';
import type { SectionResult } from './lib/results.js';
import { ADMIN_EMAIL, HEAVY_USER, seedScale, typicalUser } from './lib/scale-seed.js';
import { openTarget } from './lib/seed.js';
import { startServer, type DatabaseTarget, type RunningServer } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { median, round, sleep } from './lib/stats.js';

const DATABASE = 'flujo_bench_scale';
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
];

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
    if (res.ok) rows = (JSON.parse(body) as unknown[]).length;
    total = res.headers.get('x-total-count') ?? '';
    if (i >= 2) times.push(ms); // the first two warm the caches and the connection up
  }
  return { median: median(times), status, rows, total };
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
    for (const e of ENDPOINTS) {
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
      admin: await openSession(database.db, await idOf(ADMIN_EMAIL), now),
      heavy: await openSession(database.db, await idOf(`user${HEAVY_USER}@bench.example`), now),
      typical: await openSession(database.db, await idOf(`user${typicalUser(size)}@bench.example`), now),
    };
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
    try {
      for (const e of ENDPOINTS)
        timings.set(e.name, await timeEndpoint(server, e, cookies[e.who], settings.listSamples));
    } finally {
      await server.stop();
    }

    const canReadLog = existsSync(PG_LOG);
    const captured: CapturedPlans = canReadLog
      ? await capturePlans(target, cookies, dir)
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
    for (const e of ENDPOINTS) {
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
      'Data: deterministic (ids are md5 of the row number), skewed like real use (a squared hash picks users and workflows); the open runs are the newest 2,000 with an expiry in the future, so the sweeper has nothing to do during the measurement.',
    );
  } finally {
    if (!process.argv.includes('--keep')) await dropDatabase(DATABASE);
  }
  return section;
}
