import { request as httpRequest, type ClientRequest } from 'node:http';
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { workflowExecutions } from '../src/server/db/schema.js';
import { sha256Hex } from '../src/server/lib/tokens.js';
import { PG_ADMIN_URL, PORTS, WORK_DIR } from './lib/paths.js';
import { createDatabase, dropDatabase, withPg } from './lib/pg.js';
import type { Check, SectionResult } from './lib/results.js';
import { openTarget, seedUsers, seedWorkflows, type SeededUser } from './lib/seed.js';
import { startServer, type RunningServer } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { median, round, sleep } from './lib/stats.js';

const PG_DATABASE = 'flujo_bench_run_events';
const MANY = 1_000;
const FEW = 10;
/** The default `max_event_streams_per_user`: 100 people with 10 streams each make the thousand. */
const STREAMS_PER_USER = 10;
const DELAY_BUDGET_MS = 50;
/**
 * PostgreSQL 15 flushes a backend's counters when it goes idle, at most once a second and at the latest after
 * 10 s: a window starts this long after the last change of the stream count, so that none of the opening's
 * statements are counted in it.
 */
const SETTLE_MS = 11_000;

interface Run {
  id: string;
  token: string;
  user: SeededUser;
}

interface Seeded {
  runs: Run[];
}

/** 100 people, each with 10 runs that are running (waiting for their workflow's result), tokens known. */
async function seed(url: string): Promise<Seeded> {
  const database = await openTarget({ kind: 'postgres', url });
  try {
    const [admin] = await seedUsers(database.db, { count: 1, credits: 0, prefix: 'admin', isAdmin: true });
    // The second seeded workflow is a survey.
    const workflow = (await seedWorkflows(database.db, admin!.id, 2))[1]!;
    const users = await seedUsers(database.db, {
      count: MANY / STREAMS_PER_USER,
      credits: 0,
      prefix: 'follower',
    });
    const now = new Date();
    const perUser: Run[][] = [];
    for (const user of users) {
      const tokens = Array.from({ length: STREAMS_PER_USER }, (_, i) => `bench-${user.id}-${i}`);
      const rows = await database.db
        .insert(workflowExecutions)
        .values(
          tokens.map((token) => ({
            workflowId: workflow.id,
            userId: user.id,
            status: 'running' as const,
            language: 'en' as const,
            dispatchedAt: now,
            expiresAt: new Date(now.getTime() + 24 * 60 * 60_000),
            resultTokenHash: sha256Hex(token),
          })),
        )
        .returning({ id: workflowExecutions.id });
      perUser.push(rows.map((row, i) => ({ id: row.id, token: tokens[i]!, user })));
    }
    // Taken in turns, so that the first ten streams belong to ten people.
    const runs = Array.from({ length: STREAMS_PER_USER }, (_, i) => perUser.map((list) => list[i]!)).flat();
    return { runs };
  } finally {
    await database.close();
  }
}

/** One open event stream, read as a browser's EventSource reads it. */
interface Stream {
  run: Run;
  /** The run as its last event carried it. */
  last: { status?: string; progressMessage?: string | null } | null;
  /** Called with each event's run when it arrives. */
  onEvent: ((run: { status?: string; progressMessage?: string | null }, at: number) => void) | null;
  request: ClientRequest;
}

function openStream(server: RunningServer, run: Run): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${server.url}/api/executions/${run.id}/events`,
      // A socket of its own for each stream, as each browser tab would have.
      { agent: false, headers: { cookie: `flujo_session=${run.user.token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream ${run.id}: HTTP ${res.statusCode}`));
          res.resume();
          return;
        }
        let buffer = '';
        let opened = false;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            if (!data) continue;
            stream.last = JSON.parse(data.slice(6)) as Stream['last'];
            stream.onEvent?.(stream.last!, at);
            if (!opened) {
              opened = true;
              resolve(stream);
            }
          }
        });
        res.on('error', () => undefined);
      },
    );
    const stream: Stream = { run, last: null, onEvent: null, request };
    request.on('error', (err) => {
      if (!stream.last) reject(err);
    });
    request.end();
  });
}

function closeStream(stream: Stream): void {
  stream.request.destroy();
}

/** Transactions the database has finished, committed or rolled back, as PostgreSQL counts them. */
async function transactions(): Promise<number> {
  return withPg(PG_ADMIN_URL, async (c) => {
    const { rows } = await c.query<{ n: string }>(
      'select xact_commit + xact_rollback as n from pg_stat_database where datname = $1',
      [PG_DATABASE],
    );
    return Number(rows[0]!.n);
  });
}

async function rateOver(windowMs: number): Promise<number> {
  const before = await transactions();
  const started = performance.now();
  await sleep(windowMs);
  // The counters of the last moments are flushed up to 10 s late: wait for them, count only the window.
  await sleep(SETTLE_MS);
  const after = await transactions();
  const elapsed = performance.now() - started;
  return (after - before) / (elapsed / 1000);
}

async function listenerConnections(): Promise<number> {
  return withPg(PG_ADMIN_URL, async (c) => {
    const { rows } = await c.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'flujo-listener'`,
      [PG_DATABASE],
    );
    return rows[0]!.n;
  });
}

async function postResult(server: RunningServer, run: Run, body: object): Promise<number> {
  const res = await fetch(`${server.url}/api/workflow-result`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ execution_id: run.id, secret_token: run.token, ...body }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`result for ${run.id}: HTTP ${res.status}`);
  return res.status;
}

/**
 * The milliseconds from posting a result to instance B until the event reaches a stream held by instance A,
 * and how long B took to answer the post.
 */
async function delayOf(
  a: Stream,
  b: RunningServer,
  body: { status: 'running' | 'completed'; output_data: { message: string } },
): Promise<{ delay: number; answered: number }> {
  const arrived = new Promise<number>((resolve) => {
    a.onEvent = (run, at) => {
      const matches =
        body.status === 'completed'
          ? run.status === 'completed'
          : run.progressMessage === body.output_data.message;
      if (matches) resolve(at);
    };
  });
  const start = performance.now();
  await postResult(b, a.run, body);
  const answered = performance.now() - start;
  const timeout = sleep(10_000).then(() => Number.NaN);
  const at = await Promise.race([arrived, timeout]);
  a.onEvent = null;
  if (Number.isNaN(at)) throw new Error(`no event on A within 10 s for run ${a.run.id}`);
  return { delay: at - start, answered };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(', ');

/**
 * Live run events on PostgreSQL with two server processes: the database's work with 10 and with 1,000 open
 * streams on one instance, and the delay from a result posted to the other instance to the event on a stream.
 */
export async function benchRunEvents(settings: Settings): Promise<SectionResult> {
  const dir = join(WORK_DIR, 'run-events');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const checks: Check[] = [];
  const notes: string[] = [];
  const details: string[] = [];
  const loadBefore = load();
  const url = await createDatabase(PG_DATABASE);
  const servers: RunningServer[] = [];
  const open: Stream[] = [];
  try {
    const seeded = await seed(url);
    const start = (port: number, name: string) =>
      startServer({
        database: { kind: 'postgres', url },
        port,
        logLevel: 'warn',
        logFile: join(dir, `server-${name}.log`),
      });
    const [a, b] = await Promise.all([start(PORTS.server, 'a'), start(PORTS.raw, 'b')]);
    servers.push(a, b);

    const windowMs = settings.roundSeconds * 3 * 1000;
    const rates: Record<number, number[]> = { [FEW]: [], [MANY]: [] };
    const openUpTo = async (count: number) => {
      while (open.length > count) closeStream(open.pop()!);
      const missing = seeded.runs.slice(open.length, count);
      // A hundred at a time: a browser population arrives over time, not in one instant.
      for (let i = 0; i < missing.length; i += 100) {
        open.push(...(await Promise.all(missing.slice(i, i + 100).map((run) => openStream(a, run)))));
      }
    };
    let rssMany = Number.NaN;
    for (let round_ = 0; round_ < settings.rounds; round_++) {
      for (const count of [FEW, MANY]) {
        await openUpTo(count);
        await sleep(SETTLE_MS);
        rates[count]!.push(await rateOver(windowMs));
        if (count === MANY) rssMany = a.rssMb();
      }
    }
    const listeners = await listenerConnections();

    // The delay, with the thousand streams open on A and the results posted to B.
    await openUpTo(MANY);
    const samples = settings.quick ? 20 : 100;
    const progress: Array<{ delay: number; answered: number }> = [];
    const completions: Array<{ delay: number; answered: number }> = [];
    for (let i = 0; i < samples; i++) {
      const stream = open[(i * 37) % open.length]!;
      progress.push(
        await delayOf(stream, b, { status: 'running', output_data: { message: `Step ${i + 1}` } }),
      );
      await sleep(20);
    }
    const finishing = settings.quick ? 5 : 20;
    for (let i = 0; i < finishing; i++) {
      const stream = open[open.length - 1 - i]!;
      completions.push(await delayOf(stream, b, { status: 'completed', output_data: { message: 'Done' } }));
      await sleep(20);
    }

    const few = median(rates[FEW]!);
    const many = median(rates[MANY]!);
    const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
    const noise = Math.max(0.5, spread(rates[FEW]!), spread(rates[MANY]!));
    checks.push({
      what: `database transactions per second with ${MANY} streams open on one instance, against ${FEW} (median of ${settings.rounds} windows of ${windowMs / 1000} s each)`,
      measured: `${round(many, 2)}/s with ${MANY}, ${round(few, 2)}/s with ${FEW}: ${round(many - few, 2)}/s more`,
      ratio: `${round(many / few, 2)}x`,
      budget: `no growth beyond noise (the largest spread between windows of one setting, here ${round(noise, 2)}/s)`,
      pass: many - few <= noise,
    });
    const all = [...progress, ...completions].map((s) => s.delay);
    checks.push({
      what: `delay from a result posted to instance B to its event on a stream held by instance A, ${MANY} streams open on A (median of ${all.length})`,
      measured: `${round(median(all), 1)} ms (progress ${round(median(progress.map((s) => s.delay)), 1)} ms, completion ${round(median(completions.map((s) => s.delay)), 1)} ms; p90 ${round(percentile(all, 0.9), 1)} ms)`,
      budget: `median under ${DELAY_BUDGET_MS} ms`,
      pass: median(all) < DELAY_BUDGET_MS,
    });
    checks.push({
      what: `listening connections to the database, ${MANY} streams open`,
      measured: `${listeners} (instance A's; B follows no run, so it opened none)`,
      budget: 'reported (at most one per instance)',
      pass: null,
    });
    checks.push({
      what: `instance A's memory with ${MANY} streams open`,
      measured: `${round(rssMany)} MB RSS`,
      budget: 'reported',
      pass: null,
    });
    details.push(
      `Transactions per second, window by window: ${FEW} streams ${rates[FEW]!.map((r) => round(r, 2)).join(', ')}; ${MANY} streams ${rates[MANY]!.map((r) => round(r, 2)).join(', ')}.`,
      `Time for B to answer the result post (median): progress ${round(median(progress.map((s) => s.answered)), 1)} ms, completion ${round(median(completions.map((s) => s.answered)), 1)} ms. The delay counts from sending the post, so it includes B's own work (token check, the update and its commit); the event can reach A before B's answer reaches the poster.`,
    );
    notes.push(
      `Two production server processes (node dist/src/server/main.js, NODE_ENV=production) on one PostgreSQL database, both on the server core; the bench process holds the streams (one socket each, as separate browser tabs) and posts the results. ${MANY / STREAMS_PER_USER} people, each following ${STREAMS_PER_USER} running runs (the default max_event_streams_per_user), all on instance A.`,
      `Database load is counted at the database: xact_commit + xact_rollback of pg_stat_database for the bench database, read from another database so that the reading is not counted. pg_stat_statements is not loaded on this server (it needs shared_preload_libraries); with every statement outside an explicit transaction being a transaction of its own, the count follows statements closely. What remains with the streams idle is the two instances' background jobs (webhook retries and mail every 2 s, the tally every 5 s, the expiry sweep every 30 s...) and each listener's check query every 30 s; an open stream itself reads nothing until its run changes. For comparison, the poll this replaced read each open stream's run once a second: about ${MANY} more statements per second at ${MANY} streams.`,
      `Each window starts ${SETTLE_MS / 1000} s after the stream count last changed and is read ${SETTLE_MS / 1000} s after it ends, since PostgreSQL 15 flushes an idle backend's counters up to 10 s late; the windows alternate between ${FEW} and ${MANY} streams so that other load on the machine falls on both.`,
      `The delay: ${samples} progress messages (status running) and ${finishing} completions, each posted to B for a different run whose stream A holds, one after another; measured from sending the post to the arrival of the matching event at the reader.`,
      `Load average before: ${loadBefore}; after: ${load()} (1, 5, 15 min). On a loaded machine the delay measures the machine as much as Flujo: every hop (B's handler, PostgreSQL's commit and notification, A's listener, A's read of the run, the write) waits for a core.`,
    );
  } finally {
    for (const stream of open) closeStream(stream);
    for (const server of servers) await server.stop();
    await dropDatabase(PG_DATABASE);
  }
  return {
    id: 'run-events',
    title: 'Live run events: 1,000 open streams and the delay between instances (PostgreSQL)',
    ranAt: new Date().toISOString(),
    quick: settings.quick,
    command: '',
    checks,
    notes,
    details,
  };
}
