/**
 * 10,000 schedules due in the same minute, on PostgreSQL, taken by two instances at once (each its own
 * connection pool running the schedules job, as two server processes would): whether every due time started its
 * run within its minute, none twice and each charged once, and the runs started per second against the bare
 * debit transaction of run-start on the same database.
 *
 *   npm run bench -- schedules [--quick]
 *
 * Needs the local PostgreSQL of bench/README.md (BENCH_PG_URL for another); creates and drops
 * `flujo_bench_schedules`. The workflow service is a loopback server in this process answering 202 at once.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '#server/config.js';
import { openDatabase, type Database } from '#server/db/client.js';
import { queryRows } from '#server/db/sql-helpers.js';
import { Metrics } from '#server/lib/metrics.js';
import { startScheduledRun } from '#server/modules/public-api/saved-inputs.js';
import { type DueRunStarter, runDueSchedules } from '#server/modules/schedules/job.js';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import type { AppDeps } from '#server/types.js';
import { WORK_DIR } from './lib/paths.js';
import { createDatabase, dropDatabase } from './lib/pg.js';
import type { Check, SectionResult } from './lib/results.js';
import type { Settings } from './lib/settings.js';
import { median, round, sleep } from './lib/stats.js';
import { startBareDebit, STARTS } from './lib/starts.js';

const NAME = 'flujo_bench_schedules';
/** Instances taking the due schedules at once, each with a server's pool of 20 connections. */
const INSTANCES = 2;
/** The budget of the start rate against the bare debit (the API start's own budget, decision of run-start). */
const RATIO_BUDGET = STARTS.budget;

/** Where a start's wall time goes, summed over every schedule an instance handled. */
interface Phases {
  startMs: number;
  deliverMs: number;
}

export async function benchSchedules(settings: Settings): Promise<SectionResult> {
  const count = settings.quick ? 1_000 : 10_000;
  const load = loadavg().map((l) => l.toFixed(1));
  const service = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(202, { 'content-type': 'application/json' }).end('{"accepted":true}'));
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(service.address() as AddressInfo).port}/hook`;
  const dir = join(WORK_DIR, 'schedules');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });

  const url = await createDatabase(NAME);
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: url,
    PUBLIC_URL: 'http://127.0.0.1:3999',
    PAYMENT_PROVIDER: 'demo',
    DEMO_WORKFLOWS: 'false',
    ALLOW_PRIVATE_WEBHOOKS: 'true',
    LOG_LEVEL: 'silent',
  });
  const handles: Database[] = [];
  try {
    const seedDb = await openDatabase({ kind: 'postgres', url, poolSize: 4 });
    handles.push(seedDb);
    await seed(seedDb, hook, count);
    // Due at the start of a whole minute (UTC) at least 20 s away, daily at that minute: all due at once, as a
    // minute with 10,000 schedules of the same time is. The job is started when the minute begins.
    const due = new Date(Math.ceil((Date.now() + 20_000) / 60_000) * 60_000);
    await seedDb.db.execute(sql`
      insert into schedules (user_id, saved_input_id, cron, timezone, next_run_at)
      select md5('u' || i)::uuid, md5('s' || i)::uuid,
             ${`${due.getUTCMinutes()} ${due.getUTCHours()} * * *`}, 'UTC', ${due.toISOString()}::timestamptz
      from generate_series(1, ${count}) i`);
    // The fresh tables' statistics and the seed's dirty pages settled before the minute, as a running
    // database's are: otherwise the autovacuum's analyze and a checkpoint land inside the measured seconds.
    await seedDb.db.execute(sql`vacuum analyze`);
    await seedDb.db.execute(sql`checkpoint`);

    const instances: Array<{ deps: AppDeps; phases: Phases }> = [];
    for (let i = 0; i < INSTANCES; i += 1) {
      const database = await openDatabase({ kind: 'postgres', url, poolSize: 20 });
      handles.push(database);
      instances.push({
        deps: { config, database, db: database.db, now: () => new Date(), metrics: new Metrics() },
        phases: { startMs: 0, deliverMs: 0 },
      });
    }
    await sleep(Math.max(0, due.getTime() - Date.now()));
    const started = performance.now();
    // Each instance runs its job back to back (its interval is 5 s; a due batch keeps it going) until none is
    // due. The starter is the job's own (startScheduledRun), timed: its start, and its delivery after the commit.
    await Promise.all(
      instances.map(async ({ deps, phases }) => {
        const timed: DueRunStarter = async (d, tx, id, batch) => {
          const t0 = performance.now();
          const outcome = await startScheduledRun(d, tx, id, batch);
          phases.startMs += performance.now() - t0;
          if (outcome.kind !== 'started' || !outcome.deliver) return outcome;
          const deliver = outcome.deliver;
          return {
            ...outcome,
            deliver: async () => {
              const t1 = performance.now();
              await deliver();
              phases.deliverMs += performance.now() - t1;
            },
          };
        };
        for (;;) {
          const handled = await runDueSchedules(deps, timed);
          if (handled === 0) return;
        }
      }),
    );
    const elapsedMs = performance.now() - started;
    const [counts] = await queryRows<{
      history: number;
      started: number;
      distinct_runs: number;
      runs: number;
      charges: number;
      delivered: number;
      last: Date;
    }>(
      seedDb.db,
      sql`select (select count(*)::int from schedule_runs) as history,
                 (select count(*)::int from schedule_runs where outcome = 'started') as started,
                 (select count(distinct run_id)::int from schedule_runs) as distinct_runs,
                 (select count(*)::int from workflow_executions where origin = 'schedule') as runs,
                 (select count(*)::int from credit_transactions where transaction_type = 'usage') as charges,
                 (select count(*)::int from workflow_executions
                    where origin = 'schedule' and dispatched_at is not null) as delivered,
                 (select max(created_at) from workflow_executions where origin = 'schedule') as last`,
    );
    const c = counts!;
    const mismatches = await ledgerMismatches(seedDb.db);
    const lastAfterDueS = (new Date(c.last).getTime() - due.getTime()) / 1000;
    const perSecond = (count / elapsedMs) * 1000;

    // The limit, measured right after on the same database: run-start's bare debit at concurrency 20.
    const bare = await startBareDebit(dir, {
      kind: 'postgres',
      target: url,
      userIds: bareUsers(),
      workflowId: await bareWorkflowId(seedDb),
      price: 1,
    });
    const rounds: number[] = [];
    try {
      await bare.contender.round(settings.warmupSeconds);
      for (let i = 0; i < settings.rounds; i += 1)
        rounds.push(await bare.contender.round(settings.roundSeconds));
    } finally {
      await bare.stop();
    }
    const limit = median(rounds);
    const ratio = perSecond / limit;
    const phases = instances.map((i) => i.phases);
    const sum = (k: keyof Phases) => phases.reduce((a, p) => a + p[k], 0);

    const checks: Check[] = [
      {
        what: `PostgreSQL: every one of ${count} schedules due in the same minute started its run within that minute (last run's start after the due minute began)`,
        measured: `${round(lastAfterDueS, 1)} s (all started in ${round(elapsedMs / 1000, 1)} s)`,
        budget: '< 60 s',
        pass: lastAfterDueS < 60 && c.started === count,
      },
      {
        what: 'PostgreSQL: due times started twice (history rows, started, distinct runs, runs, charges)',
        measured: `${c.history}, ${c.started}, ${c.distinct_runs}, ${c.runs}, ${c.charges} for ${count} schedules`,
        budget: `each ${count}`,
        pass: [c.history, c.started, c.distinct_runs, c.runs, c.charges].every((n) => n === count),
      },
      {
        what: `PostgreSQL: scheduled runs started per second, ${INSTANCES} instances`,
        measured: `${round(perSecond)} /s`,
        limit: `${round(limit)} /s (bare debit transaction of run-start, pg pool of ${STARTS.concurrency})`,
        ratio: ratio.toFixed(2),
        budget: `>= ${RATIO_BUDGET}`,
        pass: ratio >= RATIO_BUDGET,
      },
      {
        what: 'PostgreSQL: scheduled runs delivered to the workflow service (each answered 202)',
        measured: String(c.delivered),
        budget: 'reported',
        pass: null,
      },
      {
        what: 'PostgreSQL: ledger mismatches afterwards (balance vs ledger sum, negative balances)',
        measured: String(mismatches.length),
        budget: '0',
        pass: mismatches.length === 0,
      },
    ];
    return {
      id: 'schedules',
      title: `Schedules: ${count.toLocaleString('en')} due in the same minute (PostgreSQL)`,
      ranAt: new Date().toISOString(),
      quick: settings.quick,
      command: '',
      checks,
      notes: [
        `${count} people, each with 10 credits (bought, so the books balance), one saved answers of a one-question survey (1 credit) and its schedule, daily at the same minute in UTC; the schedules are written just before that minute and the job is started when it begins (a server looks every 5 s, so it starts up to 5 s later).`,
        `${INSTANCES} instances, each its own pool of 20 connections running the schedules job (runDueSchedules with startScheduledRun, the one start of saved answers) back to back until none is due, as two server processes on one database would: each claims batches of 50 with FOR UPDATE SKIP LOCKED in 4 transactions at once.`,
        "Each claimed batch, in its transaction: the due times' history rows in one statement (the unique index that is the last guard against a second start), the saved answers read in one and each checked, the start statement every run uses for each (charged, the run written running with its first delivery claimed), then the outcomes, the last runs and the schedules' advance in one statement and the history's pruning in one more (decision 179); after the commit, each delivery (an HTTP POST to a loopback workflow service in this process answering 202), its log entry and its acknowledgement (both written together with those of other deliveries finishing meanwhile).",
        'Before the due minute the seeded database is vacuumed, analysed and checkpointed, as a running one has its statistics and no seed to flush.',
        `The limit: run-start's bare debit transaction (conditional UPDATE of the balance, INSERT of the run, INSERT of the ledger row) at concurrency ${STARTS.concurrency} by a bare pg pool, on the same database right after; ${settings.rounds} rounds of ${settings.roundSeconds} s after ${settings.warmupSeconds} s of warm-up, median.`,
        `Where the time went (summed over the instances' concurrent work): ${round(sum('startMs') / 1000, 1)} s inside the starts (loading, checking, charging), ${round(sum('deliverMs') / 1000, 1)} s delivering after the commits; the rest is the history, the schedule's advance and the claims.`,
        `Load average when the benchmark began: ${load.join(', ')} (1, 5, 15 min); the machine is shared, so the figures vary with its other load.`,
      ],
      details: [`Bare debit rounds (/s): ${rounds.map((r) => round(r)).join(', ')}.`],
    };
  } finally {
    for (const h of handles) await h.close();
    service.close();
    await dropDatabase(NAME);
  }
}

const BARE_USERS = STARTS.users;
const bareUsers = () => Array.from({ length: BARE_USERS }, (_, i) => uuidOf(`b${i + 1}`));

/** md5 of a text as a uuid, as PostgreSQL's md5(...)::uuid makes it. */
function uuidOf(text: string): string {
  const hex = createHash('md5').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function bareWorkflowId(db: Database): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db.db,
    sql`select id from user_workflows where webhook_url like '%/bare' limit 1`,
  );
  return row!.id;
}

/**
 * The owner and the workflow; `count` people with 10 credits and one saved answers each; and run-start's bare
 * debit's own people (a million credits each) and twin workflow, so its runs stay apart.
 */
async function seed(db: Database, hook: string, count: number): Promise<void> {
  await db.db.execute(sql`
    with owner as (
      insert into users (email, hashed_password) values ('owner@bench.example', 'x') returning id
    ), owner_profile as (
      insert into user_profiles (id, email, is_admin) select id, 'owner@bench.example', true from owner
    )
    insert into user_workflows (user_id, name, description, category, webhook_url, secret_token, is_public,
      is_active, interaction_type, credits_per_execution, survey_questions)
    select id, '{"en":"Report","es":"Informe"}', '{"en":"d","es":"d"}', '{"en":"c","es":"c"}', w.url,
      'bench-secret-0123456789abcdef0123456789', true, true, 'survey', 1,
      '[{"id":"q1","question":{"en":"Name?","es":"¿Nombre?"},"type":"text","options":[]}]'
    from owner, (values (${hook}), (${`${hook}/bare`})) as w(url)`);
  const people = (prefix: string, n: number, credits: number) => [
    sql`insert into users (id, email, hashed_password)
      select md5(${prefix} || i)::uuid, ${prefix} || i || '@bench.example', 'x' from generate_series(1, ${n}) i`,
    sql`insert into user_profiles (id, email, credits, email_verified_at)
      select md5(${prefix} || i)::uuid, ${prefix} || i || '@bench.example', ${credits}, now()
      from generate_series(1, ${n}) i`,
    sql`insert into credit_transactions (user_id, amount, transaction_type, note_kind)
      select md5(${prefix} || i)::uuid, ${credits}, 'purchase', 'purchase' from generate_series(1, ${n}) i`,
  ];
  const statements = [
    ...people('u', count, 10),
    ...people('b', BARE_USERS, STARTS.credits),
    sql`insert into saved_inputs (id, user_id, workflow_id, name, answers, language)
      select md5('s' || i)::uuid, md5('u' || i)::uuid,
             (select id from user_workflows where webhook_url = ${hook}), 'Daily', '{"q1":"Ana"}', 'en'
      from generate_series(1, ${count}) i`,
  ];
  for (const statement of statements) await db.db.execute(statement);
}
