import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PORTS, WORK_DIR } from './lib/paths.js';
import { createDatabase, dropDatabase, withPg } from './lib/pg.js';
import type { Check, SectionResult } from './lib/results.js';
import { openTarget, seedUsers, seedWorkflows, type SeededUser } from './lib/seed.js';
import { startServer, type DatabaseTarget } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { round, sleep } from './lib/stats.js';
import {
  countedStarts,
  profileStarts,
  startBareDebit,
  startChecks,
  startRounds,
  STARTS,
} from './lib/starts.js';
import { runContest } from './lib/wrk.js';

const { concurrency: CONCURRENCY, users: USERS, credits: CREDITS, budget: BUDGET } = STARTS;
const PG_DATABASE = 'flujo_bench_runs';
const SPREAD_WORKFLOWS = 20;

interface Seeded {
  users: SeededUser[];
  /** The workflow every start of the budget figure runs (one popular workflow), then others for the diagnosis. */
  workflowIds: string[];
  price: number;
}

async function seedRunners(target: DatabaseTarget): Promise<Seeded> {
  const database = await openTarget(target);
  try {
    const [admin] = await seedUsers(database.db, { count: 1, credits: 0, prefix: 'admin', isAdmin: true });
    const workflows = await seedWorkflows(database.db, admin!.id, SPREAD_WORKFLOWS);
    const users = await seedUsers(database.db, { count: USERS, credits: CREDITS, prefix: 'runner' });
    return {
      users,
      workflowIds: workflows.map((w) => w.id),
      price: workflows[0]!.creditsPerExecution,
    };
  } finally {
    await database.close();
  }
}

/**
 * What the server's database sessions are doing while the load runs, sampled every 100 ms from
 * pg_stat_activity: busy on CPU, waiting for a row lock held by another start, or idle in the pool.
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
  return `state of the server's database sessions while the starts were under load (pg_stat_activity, every 100 ms): ${parts.join(', ')}`;
}

/**
 * A wrk script that signs each request with the next user's session cookie, from our own origin, starting
 * the given workflows in turn.
 */
function startScript(file: string, origin: string, seeded: Seeded, workflowIds: string[]): void {
  const cookies = seeded.users.map((u) => `  "flujo_session=${u.token}",`).join('\n');
  const bodies = workflowIds.map((id) => `  '{"workflowId":"${id}","language":"en"}',`).join('\n');
  writeFileSync(
    file,
    `wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Origin"] = "${origin}"
local cookies = {
${cookies}
}
local bodies = {
${bodies}
}
local i = 0
request = function()
  i = i + 1
  wrk.headers["Cookie"] = cookies[(i % #cookies) + 1]
  return wrk.format(nil, nil, nil, bodies[(i % #bodies) + 1])
end
`,
  );
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
  const seeded = await seedRunners(target);
  // PGlite admits one process per data directory: the bare transaction gets a twin of its own.
  const bareDir = join(WORK_DIR, 'run-start-pglite-bare');
  let bare: Seeded = seeded;
  if (kind === 'pglite') {
    rmSync(bareDir, { recursive: true, force: true });
    bare = await seedRunners({ kind, dataDir: bareDir });
  }
  const label = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const server = await startServer({
    database: target,
    port: PORTS.server,
    logFile: join(dir, 'server.log'),
  });
  const counted = { requests: 0, errors: 0 };
  let profile = process.argv.includes('--diagnose');
  const waits: string[] = [];
  try {
    const probe = await fetch(`${server.url}/api/executions/start`, {
      // A start that never answers (a stuck database) fails the benchmark instead of hanging it.
      signal: AbortSignal.timeout(30_000),
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: server.url,
        cookie: `flujo_session=${seeded.users[0]!.token}`,
      },
      body: JSON.stringify({ workflowId: seeded.workflowIds[0] }),
    });
    if (probe.status !== 201) {
      section.checks.push({
        what: `${label}: POST /api/executions/start answers`,
        measured: `HTTP ${probe.status} ${(await probe.text()).slice(0, 120)}`,
        budget: '201',
        pass: false,
      });
      return;
    }
    const script = join(dir, 'start.lua');
    startScript(script, server.url, seeded, seeded.workflowIds.slice(0, 1));
    const bareDebit = await startBareDebit(dir, {
      kind,
      target: target.kind === 'postgres' ? target.url : join(bareDir, 'pglite'),
      userIds: bare.users.map((u) => u.id),
      workflowId: bare.workflowIds[0]!,
      price: bare.price,
    });
    try {
      const starts = (lua: string, waits: string[]) =>
        countedStarts(
          counted,
          { url: `${server.url}/api/executions/start`, script: lua },
          async (seconds) => {
            if (target.kind === 'postgres') waits.push(...(await sampleWaits(target.url, seconds)));
          },
        );
      const contest = await runContest([starts(script, waits), bareDebit.contender], settings);
      const ours = contest.medians.flujo!;
      const limit = contest.medians.bare!;
      const check: Check = {
        what: `${label}: runs started per second, concurrency ${CONCURRENCY}`,
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
      if (check.pass === false) {
        profile = true;
        // Diagnosis: the same load spread over several workflows, so that no single workflow row is hot.
        const spread = join(dir, 'start-spread.lua');
        startScript(spread, server.url, seeded, seeded.workflowIds);
        const spreadWaits: string[] = [];
        const diagnosis = await runContest([starts(spread, spreadWaits), bareDebit.contender], settings);
        const ratio = diagnosis.medians.flujo! / diagnosis.medians.bare!;
        section.checks.push({
          what: `${label}: the same, starts spread over ${SPREAD_WORKFLOWS} workflows (diagnosis)`,
          measured: `${round(diagnosis.medians.flujo!)} /s`,
          limit: `${round(diagnosis.medians.bare!)} /s`,
          ratio: ratio.toFixed(2),
          budget: 'reported',
          pass: null,
        });
        if (spreadWaits.length) {
          section.details.push(
            `${label}, spread over ${SPREAD_WORKFLOWS} workflows: ${describeWaits(spreadWaits)}`,
            '',
          );
        }
      }
    } finally {
      await bareDebit.stop();
    }
  } finally {
    await server.stop();
  }
  if (profile) {
    section.details.push(
      ...(await profileStarts({
        label,
        dir,
        seconds: settings.roundSeconds,
        server: { database: target, port: PORTS.server },
        path: '/api/executions/start',
        script: join(dir, 'start.lua'),
      })),
      '',
    );
  }
  section.checks.push(...(await startChecks(label, target, counted)));
  if (kind === 'postgres') await dropDatabase(PG_DATABASE);
}

/** POST /api/executions/start at concurrency 20 against the bare debit transaction, on PostgreSQL and PGlite. */
export async function benchRunStart(settings: Settings): Promise<SectionResult> {
  const section: SectionResult = {
    id: 'run-start',
    title: 'Run start: POST /api/executions/start',
    ranAt: new Date().toISOString(),
    quick: settings.quick,
    command: 'npm run bench -- run-start',
    checks: [],
    notes: [
      `${USERS} users, each with a session and ${CREDITS} credits given through the ledger; every request carries the next user's cookie and an Origin equal to PUBLIC_URL. Every start of the budget figure runs the same public workflow (1 credit; a popular workflow), whose webhook is never called: start does not dispatch.`,
      `The limit: the same debit (conditional UPDATE of the balance, INSERT of the run, INSERT of the ledger row) in one transaction, sent at concurrency ${CONCURRENCY} by a bare client on the server's core (pg pool of ${CONCURRENCY} / one PGlite instance).`,
      `wrk -t1 -c${CONCURRENCY} with a Lua script; ${settings.warmupSeconds} s warm-up each, then ${settings.rounds} alternating rounds of ${settings.roundSeconds} s; medians.`,
    ],
    details: [],
  };
  await measure('postgres', settings, section);
  await measure('pglite', settings, section);
  return section;
}
