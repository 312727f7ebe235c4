import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PORTS, ROOT, WORK_DIR } from './lib/paths.js';
import { createDatabase, dropDatabase } from './lib/pg.js';
import type { SectionResult } from './lib/results.js';
import { openTarget, seedUsers, seedWorkflows } from './lib/seed.js';
import { startServer, type DatabaseTarget, type RunningServer } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { median, round, sleep } from './lib/stats.js';
import { wrk } from './lib/wrk.js';

const PG_DATABASE = 'flujo_bench_footprint';
const IDLE_BUDGET_MB = { pglite: 400, postgres: 150 };
const GROWTH_BUDGET = 0.1;
const START_BUDGET_MS = 3000;
const STARTS = 3;

/** `npm start` itself when dist/ is up to date (otherwise it would build first), else its last step. */
function npmStartIsFresh(): boolean {
  const built = join(ROOT, 'dist', 'server', 'main.js');
  const web = join(ROOT, 'dist', 'web', 'index.html');
  if (!existsSync(built) || !existsSync(web)) return false;
  const newestSource = (dir: string): number => {
    let latest = statSync(dir).mtimeMs;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      latest = Math.max(latest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
    }
    return latest;
  };
  return newestSource(join(ROOT, 'src')) < Math.min(statSync(built).mtimeMs, statSync(web).mtimeMs);
}

/** Requests a browser session makes most: the catalogue, the session user, the run history, the health check. */
function mixScript(file: string, token: string): void {
  writeFileSync(
    file,
    `local paths = { "/api/workflows/public", "/api/auth/me", "/api/executions", "/healthz" }
wrk.headers["Cookie"] = "flujo_session=${token}"
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
`,
  );
}

/** Sends load until the server has answered `target` requests in all; answers how many it sent. */
async function loadUntil(server: RunningServer, script: string, sent: number, target: number) {
  let errors = 0;
  while (sent < target) {
    const r = await wrk({ url: server.url, connections: 10, seconds: 2, script });
    sent += r.requests;
    errors += r.errors + r.socketErrors;
  }
  return { sent, errors };
}

async function measure(kind: 'pglite' | 'postgres', settings: Settings, section: SectionResult) {
  const label = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const dir = join(WORK_DIR, `footprint-${kind}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target: DatabaseTarget =
    kind === 'postgres' ? { kind, url: await createDatabase(PG_DATABASE) } : { kind, dataDir: dir };
  const database = await openTarget(target);
  const [admin] = await seedUsers(database.db, { count: 1, credits: 0, prefix: 'admin', isAdmin: true });
  await seedWorkflows(database.db, admin!.id, 20);
  const [user] = await seedUsers(database.db, { count: 1, credits: 100, prefix: 'visitor' });
  await database.close();

  // Start-up on an existing data directory / database, several times.
  const useNpm = npmStartIsFresh();
  const starts: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const s = await startServer({
      database: target,
      port: PORTS.server,
      logFile: join(dir, `start-${i}.log`),
      ...(useNpm ? { command: ['npm', ['start', '--silent']] as [string, string[]] } : {}),
    });
    starts.push(s.startMs);
    await s.stop();
  }
  const startMs = median(starts);
  section.checks.push({
    what: `${label}: ${useNpm ? '`npm start`' : '`node dist/src/server/main.js` (what `npm start` runs once built)'} to the first answered request, existing data, median of ${STARTS}`,
    measured: `${round(startMs)} ms`,
    budget: `<= ${START_BUDGET_MS} ms`,
    pass: startMs <= START_BUDGET_MS,
  });
  section.details.push(`${label} start-up samples (ms): ${starts.map((s) => round(s)).join(', ')}.`);

  const server = await startServer({
    database: target,
    port: PORTS.server,
    logFile: join(dir, 'server.log'),
  });
  try {
    await fetch(`${server.url}/api/workflows/public`, { signal: AbortSignal.timeout(30_000) });
    await sleep(3000);
    const idle = server.rssMb();
    const script = join(dir, 'mix.lua');
    mixScript(script, user!.token);
    const [first, second] = settings.footprintRequests;
    const a = await loadUntil(server, script, 0, first);
    await sleep(2000);
    const afterFirst = server.rssMb();
    const b = await loadUntil(server, script, a.sent, second);
    await sleep(2000);
    const afterSecond = server.rssMb();
    const growth = (afterSecond - afterFirst) / afterFirst;
    section.checks.push(
      {
        what: `${label}: RSS idle (after start and one request)`,
        measured: `${round(idle)} MB`,
        budget: `<= ${IDLE_BUDGET_MB[kind]} MB`,
        pass: idle <= IDLE_BUDGET_MB[kind],
      },
      {
        what: `${label}: RSS after ${a.sent} requests -> after ${b.sent} requests`,
        measured: `${round(afterFirst)} MB -> ${round(afterSecond)} MB (${growth >= 0 ? '+' : ''}${round(growth * 100, 1)}%)`,
        budget: `growth <= ${GROWTH_BUDGET * 100}%`,
        pass: growth <= GROWTH_BUDGET,
      },
      {
        what: `${label}: failed answers during the load`,
        measured: String(a.errors + b.errors),
        budget: '0',
        pass: a.errors + b.errors === 0,
      },
    );
  } finally {
    await server.stop();
    if (kind === 'postgres') await dropDatabase(PG_DATABASE);
  }
}

/** RSS idle and after 10k / 100k requests, and start-up time, on PGlite and PostgreSQL. */
export async function benchFootprint(settings: Settings): Promise<SectionResult> {
  const section: SectionResult = {
    id: 'footprint',
    title: 'Footprint: memory and start-up',
    ranAt: new Date().toISOString(),
    quick: settings.quick,
    command: 'npm run bench -- footprint',
    checks: [],
    notes: [
      'RSS of the server process (VmRSS in /proc), read 2-3 s after the load stops. Load: wrk -t1 -c10 cycling through GET /api/workflows/public, /api/auth/me, /api/executions (signed in) and /healthz.',
      'PGlite runs PostgreSQL inside the server process, so its RSS includes the database; with PostgreSQL the database is another process and is not counted.',
    ],
    details: [],
  };
  await measure('pglite', settings, section);
  await measure('postgres', settings, section);
  return section;
}
