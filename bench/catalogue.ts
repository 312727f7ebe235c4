import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRawServer } from './lib/raw.js';
import type { SectionResult } from './lib/results.js';
import { openTarget, seedUsers, seedWorkflows } from './lib/seed.js';
import { startServer, type DatabaseTarget } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { round } from './lib/stats.js';
import { runContest, wrk } from './lib/wrk.js';
import { PORTS, WORK_DIR } from './lib/paths.js';

const CONNECTIONS = 50;
const WORKFLOWS = 50;
const BUDGET = 0.6;

/**
 * GET /api/workflows/public with 50 workflows against a node:http server answering the same bytes from a
 * Buffer; plus the 304 for a matching If-None-Match.
 */
export async function benchCatalogue(settings: Settings): Promise<SectionResult> {
  const dir = join(WORK_DIR, 'catalogue');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target: DatabaseTarget = { kind: 'pglite', dataDir: dir };
  const database = await openTarget(target);
  const [admin] = await seedUsers(database.db, { count: 1, credits: 0, prefix: 'admin', isAdmin: true });
  await seedWorkflows(database.db, admin!.id, WORKFLOWS);
  await database.close();

  const section: SectionResult = {
    id: 'catalogue',
    title: 'Catalogue: GET /api/workflows/public (50 workflows, PGlite)',
    ranAt: new Date().toISOString(),
    quick: settings.quick,
    command: 'npm run bench -- catalogue',
    checks: [],
    notes: [],
    details: [],
  };

  const server = await startServer({
    database: target,
    port: PORTS.server,
    logFile: join(dir, 'server.log'),
  });
  try {
    const path = '/api/workflows/public';
    const first = await fetch(server.url + path);
    const body = Buffer.from(await first.arrayBuffer());
    if (first.status !== 200) {
      section.checks.push({
        what: `${path} answers`,
        measured: `HTTP ${first.status}`,
        budget: '200',
        pass: false,
      });
      section.notes.push('The route is not in place yet: nothing to measure.');
      return section;
    }
    const etag = first.headers.get('etag');
    const count = (JSON.parse(body.toString()) as unknown[]).length;
    const revalidated = etag
      ? (await fetch(server.url + path, { headers: { 'if-none-match': etag } })).status
      : Number.NaN;
    section.checks.push({
      what: '304 for a matching If-None-Match',
      measured: etag ? `HTTP ${revalidated} (ETag ${etag})` : 'no ETag header',
      budget: '304',
      pass: revalidated === 304,
    });

    const bodyFile = join(dir, 'body.json');
    writeFileSync(bodyFile, body);
    const raw = await startRawServer(
      PORTS.raw,
      bodyFile,
      first.headers.get('content-type') ?? 'application/json',
    );
    let errors = 0;
    try {
      const contest = await runContest(
        [
          {
            name: 'flujo',
            round: async (seconds) => {
              const r = await wrk({ url: server.url + path, connections: CONNECTIONS, seconds });
              errors += r.errors + r.socketErrors;
              return r.rps;
            },
          },
          {
            name: 'raw',
            round: async (seconds) =>
              (await wrk({ url: raw.url + path, connections: CONNECTIONS, seconds })).rps,
          },
        ],
        settings,
      );
      const ours = contest.medians.flujo!;
      const limit = contest.medians.raw!;
      section.checks.push({
        what: `req/s, ${CONNECTIONS} connections, LOG_LEVEL=info`,
        measured: `${round(ours)} req/s`,
        limit: `${round(limit)} req/s (node:http + Buffer)`,
        ratio: round(ours / limit, 2).toFixed(2),
        budget: `>= ${BUDGET.toFixed(2)}`,
        pass: ours / limit >= BUDGET,
      });
      section.checks.push({
        what: 'answers outside 2xx/3xx during the load',
        measured: String(errors),
        budget: '0',
        pass: errors === 0,
      });
      section.details.push(
        `Rounds (req/s): flujo ${contest.rounds.flujo!.map((r) => round(r)).join(', ')}; raw ${contest.rounds.raw!.map((r) => round(r)).join(', ')}.`,
      );
    } finally {
      await raw.stop();
    }
    section.notes.push(
      `Body: ${count} workflows, ${body.length} bytes of JSON, served identically by both servers.`,
      `wrk -t1 -c${CONNECTIONS}, ${settings.warmupSeconds} s warm-up each, then ${settings.rounds} alternating rounds of ${settings.roundSeconds} s; medians.`,
      'The server writes its pino request log (one line per request, level info) to a file, as in production.',
    );
  } finally {
    await server.stop();
  }
  return section;
}
