import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { adminConfig, apiKeys } from '../src/server/db/schema.js';
import { sha256Hex } from '../src/server/lib/tokens.js';
import { createWorkflow } from '../src/server/modules/workflows/manage.js';
import { ledgerMismatches } from '../src/server/test/ledger-check.js';
import type { BareDebitOptions } from './lib/bare-debit.js';
import { startPgWireCounter } from './lib/pg-wire-counter.js';
import { PORTS, ROOT, WORK_DIR } from './lib/paths.js';
import { profileUnderLoad } from './lib/profile.js';
import { createDatabase, dropDatabase } from './lib/pg.js';
import type { SectionResult } from './lib/results.js';
import { openTarget, seedUsers } from './lib/seed.js';
import { startServer, type DatabaseTarget } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { round, sleep } from './lib/stats.js';
import { startWorker } from './lib/worker.js';
import { runContest, wrk } from './lib/wrk.js';

const CONCURRENCY = 20;
const USERS = 200;
const CREDITS = 1_000_000;
const BUDGET = 0.45;
const PG_DATABASE = 'flujo_bench_api_runs';
/** Far above what the load sends per key, so the per-key limit never answers 429 during the figure. */
const REQUESTS_PER_MINUTE = 100_000;

interface Seeded {
  userIds: string[];
  keys: string[];
  workflowId: string;
  price: number;
}

/** Users with credits, one API key each (stored as the app stores them: the SHA-256 only), one survey. */
async function seedCallers(target: DatabaseTarget, webhookUrl: string): Promise<Seeded> {
  const database = await openTarget(target);
  try {
    const [admin] = await seedUsers(database.db, { count: 1, credits: 0, prefix: 'admin', isAdmin: true });
    const workflow = await createWorkflow(database.db, {
      userId: admin!.id,
      name: { en: 'Tidy a lead', es: 'Ordena un contacto' },
      description: { en: 'Sends a lead to the CRM.', es: 'Envía un contacto al CRM.' },
      category: { en: 'Productivity', es: 'Productividad' },
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
    const users = await seedUsers(database.db, { count: USERS, credits: CREDITS, prefix: 'caller' });
    const keys: string[] = [];
    for (const user of users) {
      const key = `flj_${randomBytes(24).toString('base64url')}`;
      await database.db.insert(apiKeys).values({
        userId: user.id,
        name: 'bench',
        prefix: key.slice(0, 12),
        keyHash: sha256Hex(key),
      });
      keys.push(key);
    }
    return { userIds: users.map((u) => u.id), keys, workflowId: workflow.id, price: 1 };
  } finally {
    await database.close();
  }
}

/** A workflow service that accepts every run at once (202), as an asynchronous n8n webhook does. */
async function startWebhookReceiver(
  port: number,
): Promise<{ calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end('{"accepted":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Starts counted one after another (each answered before the next is sent), then this many at once. */
const COUNTED_STARTS = 100;
const COUNTED_CONCURRENT = 500;

interface Counted {
  roundTrips: number;
  parses: number;
}

/**
 * Database round trips per API start, counted on the wire (a relay in front of PostgreSQL) with a server of its
 * own: first one start at a time, then at concurrency 20, where work that concurrent requests share (a
 * setting's read, the deliveries' acknowledgements) is paid once for several starts. The idle server's
 * background jobs are counted for as long first and taken off; every start is followed until its dispatch
 * was acknowledged, so work done after the answer is counted too.
 */
async function countRoundTrips(
  target: Extract<DatabaseTarget, { kind: 'postgres' }>,
  seeded: Seeded,
  receiver: { calls: () => number },
  logFile: string,
): Promise<{ sequential: Counted; concurrent: Counted }> {
  const counter = await startPgWireCounter(target.url);
  const server = await startServer({
    database: { kind: 'postgres', url: counter.url },
    port: PORTS.server,
    logFile,
    env: { ALLOW_PRIVATE_WEBHOOKS: 'true' },
  });
  let next = 0;
  const start = async () => {
    const key = seeded.keys[next++ % seeded.keys.length]!;
    const res = await fetch(`${server.url}/api/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ workflowId: seeded.workflowId, answers: { q1: 'ACME' } }),
    });
    if (res.status !== 201) throw new Error(`counted start answered ${res.status}: ${await res.text()}`);
  };
  try {
    const idleFrom = counter.counts();
    const idleStarted = performance.now();
    await sleep(3_000);
    const idleTo = counter.counts();
    const idleMs = performance.now() - idleStarted;
    const phase = async (starts: number, run: () => Promise<void>): Promise<Counted> => {
      const before = counter.counts();
      const started = performance.now();
      const dispatched = receiver.calls();
      await run();
      const deadline = Date.now() + 30_000;
      while (receiver.calls() < dispatched + starts && Date.now() < deadline) await sleep(20);
      // The acknowledgement follows the workflow service's answer.
      await sleep(300);
      const after = counter.counts();
      const share = (performance.now() - started) / idleMs;
      const per = (key: keyof Counted) =>
        (after[key] - before[key] - (idleTo[key] - idleFrom[key]) * share) / starts;
      return { roundTrips: per('roundTrips'), parses: per('parses') };
    };
    const sequential = await phase(COUNTED_STARTS, async () => {
      for (let i = 0; i < COUNTED_STARTS; i += 1) await start();
    });
    const concurrent = await phase(COUNTED_CONCURRENT, async () => {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = 0; i < COUNTED_CONCURRENT / CONCURRENCY; i += 1) await start();
        }),
      );
    });
    return { sequential, concurrent };
  } finally {
    await server.stop();
    await counter.close();
  }
}

/** A wrk script that sends each request with the next caller's key and the survey's answer. */
function runScript(file: string, seeded: Seeded): void {
  const keys = seeded.keys.map((k) => `  "Bearer ${k}",`).join('\n');
  writeFileSync(
    file,
    `wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"workflowId":"${seeded.workflowId}","answers":{"q1":"ACME"}}'
local keys = {
${keys}
}
local i = 0
request = function()
  i = i + 1
  wrk.headers["Authorization"] = keys[(i % #keys) + 1]
  return wrk.format(nil, nil, nil, nil)
end
`,
  );
}

/**
 * POST /api/v1/runs at concurrency 20 on PostgreSQL against the bare debit transaction: a whole API start
 * (the key's lookup, the answers' check, the key's lock and spending, the start's debit, the dispatch to the
 * workflow service and its acknowledgement) against the three statements no start can do without.
 */
export async function benchApiRuns(settings: Settings): Promise<SectionResult> {
  const section: SectionResult = {
    id: 'api-runs',
    title: 'Public API runs: POST /api/v1/runs',
    ranAt: new Date().toISOString(),
    quick: settings.quick,
    command: 'npm run bench -- api-runs',
    checks: [],
    notes: [
      `${USERS} users with ${CREDITS} credits each (through the ledger) and one API key each, no monthly limit; every request carries the next user's key (Authorization: Bearer) and the answer to a one-question survey workflow (1 credit). api_requests_per_minute is raised to ${REQUESTS_PER_MINUTE} so the per-key limit does not answer.`,
      'Each start is the whole API call: the key, the workflow, the Idempotency-Key and the settings read in one lookup, the answers checked against the survey, one statement that locks the key row, keeps to its limit, charges, writes the run with its answers and its first delivery claimed and records the key spending, then the answer (201, running; wait is 0) and right after it the delivery (an HTTP POST to a loopback workflow service in the bench process that answers 202 at once) and its acknowledgement. The delivery work shares the server with the starts; wrk counts answered starts.',
      `The limit: the bare debit transaction of run-start (conditional UPDATE of the balance, INSERT of the run, INSERT of the ledger row) at concurrency ${CONCURRENCY} by a bare pg client (pool of ${CONCURRENCY}) on the server's core.`,
      `wrk -t1 -c${CONCURRENCY} with a Lua script; ${settings.warmupSeconds} s warm-up each, then ${settings.rounds} alternating rounds of ${settings.roundSeconds} s; medians.`,
      'Round trips to the database per API start, from the code: the per-key limit reads its setting (shared by requests that ask while a read is under way), the lookup, the start statement, the acknowledgement (written together with those of other deliveries finishing meanwhile), and once a minute per key its last use; the counted figures above. The bare debit makes 5. On a busy machine each round trip waits for a core, so the ratio falls with the load.',
      `Load average when the benchmark began: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} (1, 5, 15 min).`,
    ],
    details: [],
  };
  const dir = join(WORK_DIR, 'api-runs');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target: DatabaseTarget = { kind: 'postgres', url: await createDatabase(PG_DATABASE) };
  const receiver = await startWebhookReceiver(PORTS.webhook);
  const seeded = await seedCallers(target, `http://127.0.0.1:${PORTS.webhook}/hook`);
  const counted = await countRoundTrips(target, seeded, receiver, join(dir, 'server-counted.log'));
  const figure = (c: Counted) => `${round(c.roundTrips, 1)} (statements parsed: ${round(c.parses, 1)})`;
  section.checks.push(
    {
      what: 'PostgreSQL: database round trips per API start, counted on the wire, one start at a time (its dispatch included; the bare debit makes 5)',
      measured: figure(counted.sequential),
      budget: 'reported',
      pass: null,
    },
    {
      what: `PostgreSQL: the same, ${COUNTED_CONCURRENT} starts at concurrency ${CONCURRENCY}`,
      measured: figure(counted.concurrent),
      budget: 'reported',
      pass: null,
    },
  );
  const server = await startServer({
    database: target,
    port: PORTS.server,
    logFile: join(dir, 'server.log'),
    // The workflow service listens on loopback.
    env: { ALLOW_PRIVATE_WEBHOOKS: 'true' },
  });
  let errors = 0;
  let requests = 0;
  let profile = process.argv.includes('--diagnose');
  const script = join(dir, 'runs.lua');
  try {
    const database = await openTarget(target);
    try {
      await database.db
        .update(adminConfig)
        .set({ value: REQUESTS_PER_MINUTE })
        .where(eq(adminConfig.key, 'api_requests_per_minute'));
    } finally {
      await database.close();
    }
    const probe = await fetch(`${server.url}/api/v1/runs`, {
      signal: AbortSignal.timeout(30_000),
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${seeded.keys[0]}` },
      body: JSON.stringify({ workflowId: seeded.workflowId, answers: { q1: 'ACME' } }),
    });
    const probeBody = await probe.text();
    if (probe.status !== 201 || !probeBody.includes('"running"')) {
      section.checks.push({
        what: 'PostgreSQL: POST /api/v1/runs answers',
        measured: `HTTP ${probe.status} ${probeBody.slice(0, 160)}`,
        budget: '201, run running',
        pass: false,
      });
      return section;
    }
    runScript(script, seeded);
    const options: BareDebitOptions = {
      kind: 'postgres',
      target: target.url,
      userIds: seeded.userIds,
      workflowId: seeded.workflowId,
      price: seeded.price,
      concurrency: CONCURRENCY,
    };
    const optionsFile = join(dir, 'bare-debit.json');
    writeFileSync(optionsFile, JSON.stringify(options));
    const worker = await startWorker(join(ROOT, 'bench', 'lib', 'bare-debit.ts'), optionsFile);
    try {
      const contest = await runContest(
        [
          {
            name: 'flujo',
            round: async (seconds) => {
              const r = await wrk({
                url: `${server.url}/api/v1/runs`,
                connections: CONCURRENCY,
                seconds,
                script,
              });
              errors += r.errors + r.socketErrors;
              requests += r.requests;
              return r.rps;
            },
          },
          { name: 'bare', round: async (seconds) => Number(await worker.ask(String(seconds))) },
        ],
        settings,
      );
      const ours = contest.medians.flujo!;
      const limit = contest.medians.bare!;
      section.checks.push({
        what: `PostgreSQL: runs started per second through POST /api/v1/runs, concurrency ${CONCURRENCY}`,
        measured: `${round(ours)} /s`,
        limit: `${round(limit)} /s (bare debit transaction, pg pool)`,
        ratio: round(ours / limit, 2).toFixed(2),
        budget: `>= ${BUDGET.toFixed(2)}`,
        pass: ours / limit >= BUDGET,
      });
      if (ours / limit < BUDGET) profile = true;
      section.details.push(
        `PostgreSQL rounds (/s): flujo ${contest.rounds.flujo!.map((r) => round(r)).join(', ')}; bare ${contest.rounds.bare!.map((r) => round(r)).join(', ')}.`,
        '',
      );
    } finally {
      await worker.stop();
    }
  } finally {
    await server.stop();
  }
  if (profile) {
    section.details.push(
      ...(await profileUnderLoad({
        label: 'PostgreSQL',
        profileDir: join(dir, 'profile'),
        seconds: settings.roundSeconds,
        start: (nodeArgs) =>
          startServer({
            database: target,
            port: PORTS.server,
            logFile: join(dir, 'server-profiled.log'),
            env: { ALLOW_PRIVATE_WEBHOOKS: 'true' },
            nodeArgs,
          }),
        load: (url) =>
          wrk({
            url: `${url}/api/v1/runs`,
            connections: CONCURRENCY,
            seconds: settings.roundSeconds,
            script,
          }),
      })),
      '',
    );
  }
  await receiver.close();
  section.checks.push({
    what: 'PostgreSQL: failed starts during the load',
    measured: `${errors} of ${requests}`,
    budget: '0',
    pass: errors === 0,
  });
  section.checks.push({
    what: 'PostgreSQL: runs dispatched to the workflow service (each answered 202)',
    measured: String(receiver.calls()),
    budget: 'reported',
    pass: null,
  });
  const database = await openTarget(target);
  const mismatches = await ledgerMismatches(database.db);
  await database.close();
  section.checks.push({
    what: 'PostgreSQL: ledger mismatches afterwards (balance vs ledger sum, negative balances)',
    measured: String(mismatches.length),
    budget: '0',
    pass: mismatches.length === 0,
  });
  await dropDatabase(PG_DATABASE);
  return section;
}
