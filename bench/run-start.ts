import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.js';
import { workflowExecutions } from '#server/db/schema.js';
import { queryRows } from '#server/db/sql-helpers.js';
import { createWorkflow } from '#server/modules/workflows/manage.js';
import { CATEGORIES } from '#shared/contract/categories.js';
import { PORTS, WORK_DIR } from './lib/paths.js';
import { createDatabase, dropDatabase, withPg } from './lib/pg.js';
import type { Check, SectionResult } from './lib/results.js';
import { openTarget, seedUsers, type SeededUser } from './lib/seed.js';
import { startServer, type DatabaseTarget } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { round, sleep } from './lib/stats.js';
import { profileStarts, startBareDebit, startChecks, startRounds, STARTS } from './lib/starts.js';
import { runContest, wrk, type Contest } from './lib/wrk.js';

const { concurrency: CONCURRENCY, users: USERS, credits: CREDITS, budget: BUDGET } = STARTS;
const PG_DATABASE = 'flujo_bench_runs';
/**
 * The most submits per second a round is given runs for; far above what a submit manages (the bare debit, three
 * statements, made about 2,000/s on PostgreSQL and 1,000/s on PGlite on a quiet 2-core machine). A round that
 * uses them all fails the benchmark rather than report a wrong figure.
 */
const SUBMITS_PER_SECOND_CAP = { postgres: 2_500, pglite: 1_000 } as const;
/** Rows per INSERT when opening the pool of runs. */
const POOL_CHUNK = 4_000;
/** How long the pre-opened runs stay open (their expiry): longer than any run of the benchmark. */
const RUN_LIFETIME_MS = 6 * 60 * 60_000;
/** The survey's answers, named by questionId, as the web app sends them. */
const SUBMIT_BODY = '{"responses":[{"questionId":"q1","answer":"ACME"}]}';
/** The workflow service's synchronous answer: the run's result, so the submit ends with the run completed. */
const WEBHOOK_RESULT = JSON.stringify({
  status: 'completed',
  output_type: 'text',
  output_data: { message: 'Lead sent to the CRM.' },
});

interface Seeded {
  users: SeededUser[];
  /** The survey every submit of the figure answers (one popular workflow, 1 credit). */
  workflowId: string;
  /** A twin of it that only the bare debit writes to, so the books of the submitted runs stay apart. */
  bareWorkflowId: string;
  price: number;
}

/**
 * The one-question survey of the benchmark (1 credit) with its webhook on the loopback workflow service; the
 * same question as seedWorkflows' surveys and the public API's benchmark.
 */
function surveyWorkflow(db: Db, ownerId: string, name: string, webhookUrl: string) {
  return createWorkflow(db, {
    userId: ownerId,
    name: { en: `${name}: tidy a lead`, es: `${name}: ordena un contacto` },
    description: { en: 'Sends a lead to the CRM.', es: 'Envía un contacto al CRM.' },
    category: CATEGORIES[0]!.name,
    webhookUrl,
    isPublic: true,
    isActive: true,
    creditsPerExecution: 1,
    interactionType: 'survey',
    welcomeMessage: null,
    aiPrompt: null,
    surveyQuestions: [
      { id: 'q1', question: { en: 'Which account?', es: '¿Qué cuenta?' }, type: 'text', options: [] },
    ],
  });
}

/** One pre-opened run: the owner's session cookie and the run's id. */
interface OpenRun {
  cookie: string;
  runId: string;
}

/**
 * Users, the survey, and `pool` unsent runs of it, opened before the server starts (PGlite admits one process
 * per data directory): rows as openRun writes them (pending, nothing charged, language en, expiring in
 * RUN_LIFETIME_MS), owned by the users in turn so that consecutive submits come from different people.
 * They are written here rather than through POST /api/executions/start because a person has at most one
 * unsent run of a workflow (a second open answers the same run) and at most open_runs_per_user of them.
 */
async function seedRunners(target: DatabaseTarget, webhookUrl: string, pool: number) {
  const database = await openTarget(target);
  try {
    const [admin] = await seedUsers(database.db, { count: 1, credits: 0, prefix: 'admin', isAdmin: true });
    const workflow = await surveyWorkflow(database.db, admin!.id, 'Submit', webhookUrl);
    const bareWorkflow = await surveyWorkflow(database.db, admin!.id, 'Bare', webhookUrl);
    const users = await seedUsers(database.db, { count: USERS, credits: CREDITS, prefix: 'runner' });
    const seeded: Seeded = {
      users,
      workflowId: workflow.id,
      bareWorkflowId: bareWorkflow.id,
      price: workflow.creditsPerExecution,
    };
    const runs: OpenRun[] = [];
    const now = new Date();
    const expiresAt = new Date(now.getTime() + RUN_LIFETIME_MS);
    for (let from = 0; from < pool; from += POOL_CHUNK) {
      const rows = Array.from({ length: Math.min(POOL_CHUNK, pool - from) }, (_, k) => {
        const user = users[(from + k) % users.length]!;
        const id = randomUUID();
        runs.push({ cookie: `flujo_session=${user.token}`, runId: id });
        return {
          id,
          workflowId: workflow.id,
          userId: user.id,
          status: 'pending' as const,
          language: 'en' as const,
          creditsUsed: 0,
          createdAt: now,
          expiresAt,
        };
      });
      await database.db.insert(workflowExecutions).values(rows);
    }
    return { seeded, runs };
  } finally {
    await database.close();
  }
}

/** A workflow service that answers every delivery at once with its result (a synchronous n8n webhook). */
async function startWebhookReceiver(
  port: number,
): Promise<{ calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(WEBHOOK_RESULT);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The runs each load round submits, handed out in order: a round never sees a run an earlier one used. The
 * round's wrk script reads its share from `file` when it starts.
 */
class RunPool {
  private next = 0;
  constructor(
    private readonly runs: OpenRun[],
    private readonly file: string,
  ) {}

  /** Takes one run (the probe's). */
  take(): OpenRun {
    const run = this.runs[this.next++];
    if (!run) throw new Error('the pool of open runs is used up');
    return run;
  }

  /** Writes the next `count` runs for a wrk round to the file; answers how many it wrote. */
  share(count: number): number {
    const slice = this.runs.slice(this.next, this.next + count);
    this.next += slice.length;
    if (slice.length === 0) throw new Error('the pool of open runs is used up');
    writeFileSync(this.file, slice.map((r) => `${r.cookie}\t${r.runId}\n`).join(''));
    return slice.length;
  }
}

/**
 * What the server's database sessions are doing while the load runs, sampled every 100 ms from
 * pg_stat_activity: busy on CPU, waiting for a row lock held by another submit, or idle in the pool.
 */
async function sampleWaits(url: string, seconds: number): Promise<string[]> {
  const samples: string[] = [];
  await withPg(url, async (c) => {
    const end = Date.now() + (seconds - 0.5) * 1000;
    while (Date.now() < end) {
      const rows = await c.query<{ what: string }>(
        `select case when state = 'active' then coalesce(wait_event_type || ':' || wait_event, 'running')
                     else state end as what
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
           and backend_type = 'client backend' and application_name <> 'bench-bare-debit'`,
      );
      samples.push(...rows.rows.map((r) => r.what ?? 'unknown'));
      await sleep(100);
    }
  });
  return samples;
}

function describeWaits(samples: string[]): string {
  const counts = new Map<string, number>();
  for (const s of samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  const parts = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([what, n]) => `${what} ${Math.round((n / samples.length) * 100)}%`);
  return `state of the server's database sessions while the submits were under load (pg_stat_activity, every 100 ms): ${parts.join(', ')}`;
}

/**
 * A wrk script that submits the survey's answers to the runs listed in `runsFile` (a line per run: the owner's
 * cookie, a tab, the run's id), each once and in order, from our own origin. Past the end of the list it
 * sends the last run again, which answers 409 and fails the round (the pool was too small).
 */
function submitScript(file: string, origin: string, runsFile: string): void {
  writeFileSync(
    file,
    `wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Origin"] = "${origin}"
wrk.body = '${SUBMIT_BODY}'
local cookies = {}
local paths = {}
for line in io.lines("${runsFile}") do
  local cookie, id = line:match("^([^\\t]+)\\t(.+)$")
  cookies[#cookies + 1] = cookie
  paths[#paths + 1] = "/api/executions/" .. id .. "/complete"
end
local i = 0
request = function()
  i = i + 1
  local k = math.min(i, #paths)
  wrk.headers["Cookie"] = cookies[k]
  return wrk.format(nil, paths[k], nil, nil)
end
`,
  );
}

/** The runs of the benchmark's survey, and whether each was charged as the rule says. */
interface RunBooks {
  submitted: number;
  completed: number;
  /** Submitted runs not charged exactly once (credits_used = price, one usage row of -price, nothing else). */
  notChargedOnce: number;
  unsent: number;
  /** Unsent runs with any charge (credits_used or a ledger row). */
  unsentCharged: number;
}

async function runBooks(target: DatabaseTarget, workflowId: string, price: number): Promise<RunBooks> {
  const database = await openTarget(target);
  try {
    const [books] = await queryRows<RunBooks>(
      database.db,
      sql`select
          count(*) filter (where r.dispatched_at is not null)::int as "submitted",
          count(*) filter (where r.dispatched_at is not null and r.status = 'completed')::int as "completed",
          count(*) filter (where r.dispatched_at is not null and not (r.credits_used = ${price}
            and coalesce(l.usage_rows, 0) = 1 and coalesce(l.rows, 0) = 1 and coalesce(l.total, 0) = ${-price}))::int
            as "notChargedOnce",
          count(*) filter (where r.dispatched_at is null)::int as "unsent",
          count(*) filter (where r.dispatched_at is null and (r.credits_used <> 0 or coalesce(l.rows, 0) <> 0))::int
            as "unsentCharged"
        from workflow_executions r
        left join (
          select execution_id, count(*) filter (where transaction_type = 'usage') as usage_rows, count(*) as rows,
            sum(amount) as total
          from credit_transactions where execution_id is not null group by execution_id
        ) l on l.execution_id = r.id
        where r.workflow_id = ${workflowId}::uuid`,
    );
    return books!;
  } finally {
    await database.close();
  }
}

async function measure(
  kind: 'postgres' | 'pglite',
  settings: Settings,
  section: SectionResult,
): Promise<void> {
  const dir = join(WORK_DIR, `run-start-${kind}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target: DatabaseTarget =
    kind === 'postgres' ? { kind, url: await createDatabase(PG_DATABASE) } : { kind, dataDir: dir };
  const label = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const cap = SUBMITS_PER_SECOND_CAP[kind];
  // Every timed second the load may take up to `cap` runs: the warm-up, the rounds and a profile's round.
  const timedSeconds =
    settings.warmupSeconds + settings.rounds * settings.roundSeconds + settings.roundSeconds;
  const receiver = await startWebhookReceiver(PORTS.webhook);
  const webhookUrl = `http://127.0.0.1:${PORTS.webhook}/hook`;
  const { seeded, runs } = await seedRunners(target, webhookUrl, cap * timedSeconds + 1);
  const pool = new RunPool(runs, join(dir, 'runs.txt'));
  // PGlite admits one process per data directory: the bare transaction gets a twin of its own.
  const bareDir = join(WORK_DIR, 'run-start-pglite-bare');
  let bare: Seeded = seeded;
  if (kind === 'pglite') {
    rmSync(bareDir, { recursive: true, force: true });
    bare = (await seedRunners({ kind, dataDir: bareDir }, webhookUrl, 0)).seeded;
  }
  // The workflow service listens on loopback.
  const env = { ALLOW_PRIVATE_WEBHOOKS: 'true' };
  const server = await startServer({
    database: target,
    port: PORTS.server,
    logFile: join(dir, 'server.log'),
    env,
  });
  const counted = { requests: 0, errors: 0 };
  let profile = process.argv.includes('--diagnose');
  const waits: string[] = [];
  const script = join(dir, 'submit.lua');
  submitScript(script, server.url, join(dir, 'runs.txt'));
  try {
    const probeRun = pool.take();
    const probe = await fetch(`${server.url}/api/executions/${probeRun.runId}/complete`, {
      // A submit that never answers (a stuck database) fails the benchmark instead of hanging it.
      signal: AbortSignal.timeout(30_000),
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url, cookie: probeRun.cookie },
      body: SUBMIT_BODY,
    });
    const probeBody = await probe.text();
    if (probe.status !== 200 || !probeBody.includes('"completed"')) {
      section.checks.push({
        what: `${label}: POST /api/executions/{id}/complete answers`,
        measured: `HTTP ${probe.status} ${probeBody.slice(0, 160)}`,
        budget: '200, run completed',
        pass: false,
      });
      return;
    }
    const bareDebit = await startBareDebit(dir, {
      kind,
      target: target.kind === 'postgres' ? target.url : join(bareDir, 'pglite'),
      userIds: bare.users.map((u) => u.id),
      workflowId: bare.bareWorkflowId,
      price: bare.price,
    });
    try {
      const submits: Contest = {
        name: 'flujo',
        round: async (seconds) => {
          const shared = pool.share(cap * seconds);
          const running = wrk({
            url: `${server.url}/api/executions`,
            connections: CONCURRENCY,
            seconds,
            script,
          });
          if (target.kind === 'postgres') waits.push(...(await sampleWaits(target.url, seconds)));
          const r = await running;
          counted.errors += r.errors + r.socketErrors;
          counted.requests += r.requests;
          if (r.requests >= shared) {
            throw new Error(
              `a ${seconds} s round used all ${shared} runs opened for it: raise SUBMITS_PER_SECOND_CAP.${kind}`,
            );
          }
          return r.rps;
        },
      };
      const contest = await runContest([submits, bareDebit.contender], settings);
      const ours = contest.medians.flujo!;
      const limit = contest.medians.bare!;
      const check: Check = {
        what: `${label}: survey submits charged per second, concurrency ${CONCURRENCY}`,
        measured: `${round(ours)} /s`,
        limit: `${round(limit)} /s (bare debit transaction, ${kind === 'postgres' ? 'pg pool' : 'PGlite'})`,
        ratio: round(ours / limit, 2).toFixed(2),
        // PGlite is reported: the budget is set for PostgreSQL, the production database.
        budget: kind === 'postgres' ? `>= ${BUDGET.toFixed(2)}` : 'reported',
        pass: kind === 'postgres' ? ours / limit >= BUDGET : null,
      };
      section.checks.push(check);
      if (waits.length) section.details.push(`${label}: ${describeWaits(waits)}`, '');
      section.details.push(startRounds(label, contest), '');
      if (check.pass === false) profile = true;
    } finally {
      await bareDebit.stop();
    }
  } finally {
    await server.stop();
  }
  if (profile) {
    pool.share(cap * settings.roundSeconds);
    section.details.push(
      ...(await profileStarts({
        label,
        dir,
        seconds: settings.roundSeconds,
        server: { database: target, port: PORTS.server, env },
        path: '/api/executions',
        script,
      })),
      '',
    );
  }
  await receiver.close();
  section.checks.push(...(await startChecks(label, target, counted, 'submits')));
  const books = await runBooks(target, seeded.workflowId, seeded.price);
  section.checks.push(
    {
      what: `${label}: submitted runs not charged exactly once (one usage row of the price, no other ledger row)`,
      measured: `${books.notChargedOnce} of ${books.submitted} (${books.completed} completed; the workflow service was called ${receiver.calls()} times)`,
      budget: '0',
      pass: books.submitted > 0 && books.notChargedOnce === 0,
    },
    {
      what: `${label}: opened runs left unsent that were charged anything`,
      measured: `${books.unsentCharged} of ${books.unsent}`,
      budget: '0',
      pass: books.unsentCharged === 0,
    },
  );
  if (kind === 'postgres') await dropDatabase(PG_DATABASE);
}

/**
 * POST /api/executions/{id}/complete (a survey's answers, where a web run is charged) at concurrency 20
 * against the bare debit transaction, on PostgreSQL and PGlite.
 */
export async function benchRunStart(settings: Settings): Promise<SectionResult> {
  const section: SectionResult = {
    id: 'run-start',
    title: 'Run charge: POST /api/executions/{id}/complete (survey submit)',
    ranAt: new Date().toISOString(),
    quick: settings.quick,
    command: 'npm run bench -- run-start',
    checks: [],
    notes: [
      `Since decision 123 a web run is charged when its survey is submitted, not when it is opened (POST /api/executions/start charges nothing and answers the person's unsent run again), so this measures the submit. ${USERS} users, each with a session and ${CREDITS} credits given through the ledger; one public one-question survey (1 credit) whose webhook is a loopback workflow service in the bench process answering 200 with a completed result at once.`,
      `Runs are opened before the timed window, not in it: unsent rows as openRun writes them (pending, nothing charged), written into the database before the server starts, owned by the users in turn; up to ${SUBMITS_PER_SECOND_CAP.postgres}/s (PostgreSQL) or ${SUBMITS_PER_SECOND_CAP.pglite}/s (PGlite) of load are opened for each round, and every round submits runs no other round touched. Each request is one whole submit of one run by its owner's session cookie, from an Origin equal to PUBLIC_URL, with valid answers ({ questionId: "q1", answer }): the answers checked, the run locked, charged (chargeRun: credits_used, the debit through applyLedgerEntry, the run counter's note) and marked running in one transaction, the delivery to the workflow service, its synchronous result applied (the run completed), and the run read back for the answer (200). Opening runs is not timed.`,
      `The limit: the bare debit (conditional UPDATE of the balance, INSERT of the run, INSERT of the ledger row) in one transaction, sent at concurrency ${CONCURRENCY} by a bare client on the server's core (pg pool of ${CONCURRENCY} / one PGlite instance), unchanged; it writes to a workflow of its own so the submitted runs' books are checked apart.`,
      `wrk -t1 -c${CONCURRENCY} with a Lua script; ${settings.warmupSeconds} s warm-up each, then ${settings.rounds} alternating rounds of ${settings.roundSeconds} s; medians.`,
      `Load average when the benchmark began: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} (1, 5, 15 min).`,
    ],
    details: [],
  };
  await measure('postgres', settings, section);
  await measure('pglite', settings, section);
  return section;
}
