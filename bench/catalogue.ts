import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startRawServer } from './lib/raw.js';
import type { SectionResult } from './lib/results.js';
import { openTarget, seedUsers, seedWorkflows } from './lib/seed.js';
import { startServer, type DatabaseTarget } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { round } from './lib/stats.js';
import { runContest, wrk } from './lib/wrk.js';
import { PORTS, WORK_DIR } from './lib/paths.js';
import { createDatabase, dropDatabase } from './lib/pg.js';
import { profileUnderLoad } from './lib/profile.js';

const CONNECTIONS = 50;
const WORKFLOWS = 50;
const BUDGET = 0.6;
const PG_DATABASE = 'flujo_bench_catalogue';
/** What Chromium sends: both servers answer the same brotli bytes. */
const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** A GET that keeps the bytes as sent (fetch would decompress them). */
function get(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, signal: AbortSignal.timeout(30_000) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  return body;
}

/**
 * GET /api/workflows/public with 50 workflows, asked with a browser's Accept-Encoding, against a node:http
 * server answering the same compressed bytes from a Buffer; plus the 304 for a matching If-None-Match. On
 * PGlite (the default install) and PostgreSQL.
 */
export async function benchCatalogue(settings: Settings): Promise<SectionResult> {
  const section: SectionResult = {
    id: 'catalogue',
    title: 'Catalogue: GET /api/workflows/public (50 workflows)',
    ranAt: new Date().toISOString(),
    quick: settings.quick,
    command: 'npm run bench -- catalogue',
    checks: [],
    notes: [
      `wrk -t1 -c${CONNECTIONS} -H 'Accept-Encoding: ${ACCEPT_ENCODING}', ${settings.warmupSeconds} s warm-up each, then ${settings.rounds} alternating rounds of ${settings.roundSeconds} s; medians.`,
      'The server writes its pino request log (one line per request, level info) to a file, as in production.',
    ],
    details: [],
  };
  await measure('pglite', settings, section);
  await measure('postgres', settings, section);
  return section;
}

async function measure(
  kind: 'pglite' | 'postgres',
  settings: Settings,
  section: SectionResult,
): Promise<void> {
  const label = kind === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const dir = join(WORK_DIR, `catalogue-${kind}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target: DatabaseTarget =
    kind === 'postgres' ? { kind, url: await createDatabase(PG_DATABASE) } : { kind, dataDir: dir };
  const database = await openTarget(target);
  const [admin] = await seedUsers(database.db, { count: 1, credits: 0, prefix: 'admin', isAdmin: true });
  await seedWorkflows(database.db, admin!.id, WORKFLOWS);
  await database.close();
  try {
    await measureOn(target, label, dir, settings, section);
  } finally {
    if (kind === 'postgres') await dropDatabase(PG_DATABASE);
  }
}

async function measureOn(
  target: DatabaseTarget,
  label: string,
  dir: string,
  settings: Settings,
  section: SectionResult,
): Promise<void> {
  const serverOptions = (logLevel: string, nodeArgs: string[] = []) => ({
    database: target,
    port: PORTS.server,
    logFile: join(dir, `server-${logLevel}.log`),
    logLevel,
    nodeArgs,
  });
  const path = '/api/workflows/public';
  let server = await startServer(serverOptions('info'));
  const accept = { 'accept-encoding': ACCEPT_ENCODING };
  const first = await get(server.url + path, accept);
  if (first.status !== 200) {
    await server.stop();
    section.checks.push({
      what: `${label}: ${path} answers`,
      measured: `HTTP ${first.status}`,
      budget: '200',
      pass: false,
    });
    return;
  }
  const body = first.body;
  const encoding = first.headers['content-encoding'];
  const json = decode(body, encoding);
  const etag = first.headers.etag;
  const count = (JSON.parse(json.toString()) as unknown[]).length;
  const revalidated = etag
    ? (await get(server.url + path, { ...accept, 'if-none-match': etag })).status
    : NaN;
  section.checks.push({
    what: `${label}: 304 for a matching If-None-Match`,
    measured: etag ? `HTTP ${revalidated} (ETag ${etag})` : 'no ETag header',
    budget: '304',
    pass: revalidated === 304,
  });
  section.checks.push({
    what: `${label}: answer compressed for a browser's Accept-Encoding`,
    measured: `${encoding ?? 'identity'}, ${body.length} bytes for ${json.length} bytes of JSON`,
    budget: 'br',
    pass: encoding === 'br',
  });

  const bodyFile = join(dir, 'body.bin');
  writeFileSync(bodyFile, body);
  const raw = await startRawServer(
    PORTS.raw,
    bodyFile,
    first.headers['content-type'] ?? 'application/json',
    encoding,
  );
  let errors = 0;
  const contest = (url: string) =>
    runContest(
      [
        {
          name: 'flujo',
          round: async (seconds) => {
            const r = await wrk({ url: url + path, connections: CONNECTIONS, seconds, headers: accept });
            errors += r.errors + r.socketErrors;
            return r.rps;
          },
        },
        {
          name: 'raw',
          round: async (seconds) =>
            (await wrk({ url: raw.url + path, connections: CONNECTIONS, seconds, headers: accept })).rps,
        },
      ],
      settings,
    );
  const describe = (c: Awaited<ReturnType<typeof contest>>) =>
    `flujo ${c.rounds.flujo!.map((r) => round(r)).join(', ')}; raw ${c.rounds.raw!.map((r) => round(r)).join(', ')}`;
  try {
    const main = await contest(server.url);
    const ratio = main.medians.flujo! / main.medians.raw!;
    section.checks.push({
      what: `${label}: req/s, ${CONNECTIONS} connections, LOG_LEVEL=info`,
      measured: `${round(main.medians.flujo!)} req/s`,
      limit: `${round(main.medians.raw!)} req/s (node:http + the same compressed Buffer)`,
      ratio: ratio.toFixed(2),
      budget: `>= ${BUDGET.toFixed(2)}`,
      pass: ratio >= BUDGET,
    });
    section.details.push(`${label} rounds (req/s): ${describe(main)}.`);

    if (ratio < BUDGET || process.argv.includes('--diagnose')) {
      // Where the time goes: a CPU profile of the server under the same load...
      await server.stop();
      section.details.push(
        ...(await profileUnderLoad({
          label,
          profileDir: join(dir, 'profile'),
          seconds: settings.roundSeconds,
          start: (nodeArgs) => startServer(serverOptions('info', nodeArgs)),
          load: (url) =>
            wrk({
              url: url + path,
              connections: CONNECTIONS,
              seconds: settings.roundSeconds,
              headers: accept,
            }),
        })),
      );
      // ...and the same load without the per-request log line (once per run: the log costs the same on both).
      if (!section.checks.some((c) => c.what.includes('LOG_LEVEL=warn'))) {
        server = await startServer(serverOptions('warn'));
        const quiet = await contest(server.url);
        section.checks.push({
          what: `${label}: req/s with LOG_LEVEL=warn (no request log), for comparison`,
          measured: `${round(quiet.medians.flujo!)} req/s`,
          limit: `${round(quiet.medians.raw!)} req/s`,
          ratio: (quiet.medians.flujo! / quiet.medians.raw!).toFixed(2),
          budget: 'reported',
          pass: null,
        });
        section.details.push('', `${label} rounds without the request log (req/s): ${describe(quiet)}.`, '');
      }
    }
  } finally {
    await raw.stop();
    await server.stop();
  }
  section.checks.push({
    what: `${label}: answers outside 2xx/3xx during the load`,
    measured: String(errors),
    budget: '0',
    pass: errors === 0,
  });
  section.notes.push(
    `${label}: body of ${count} workflows, ${json.length} bytes of JSON sent as ${body.length} bytes of ${encoding ?? 'identity'}, served identically by both servers.`,
  );
}
