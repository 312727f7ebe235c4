import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { ensureWebBuild } from './lib/build.js';
import { PORTS, WORK_DIR } from './lib/paths.js';
import type { SectionResult } from './lib/results.js';
import { openTarget, seedUsers, seedWorkflows } from './lib/seed.js';
import { startServer, type DatabaseTarget } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { median } from './lib/stats.js';

/** The public pages and the two languages, each at its own address (decision 135: `?lng=`). */
const PAGES = ['/', '/workflows', '/signin', '/signup'];
const LANGUAGES = ['es', 'en'] as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const SHORT: Record<(typeof CATEGORIES)[number], string> = {
  performance: 'perf',
  accessibility: 'a11y',
  'best-practices': 'best pr.',
  seo: 'SEO',
};
const BUDGET = 95;
/** As the journeys run Chromium (playwright.config.ts), plus what Lighthouse's own launcher adds. */
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic'];

interface Run {
  scores: Record<(typeof CATEGORIES)[number], number>;
  metrics: Record<string, string>;
  /** Audits of a weight in any category that did not pass, with what Lighthouse says of them. */
  failed: string[];
}

let version = '12';

const loadText = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/**
 * One Lighthouse run, tried again when Lighthouse itself fails to record the load (NO_NAVSTART and the like
 * happen now and then with a busy browser): such a run has no scores, not bad ones.
 */
async function audit(url: string, port: number): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await auditOnce(url, port);
    } catch (err) {
      if (attempt >= 3) throw err;
      console.warn(`bench: lighthouse: ${String(err)}; again`);
    }
  }
}

async function auditOnce(url: string, port: number): Promise<Run> {
  // Lighthouse's defaults: mobile form factor and screen, simulated throttling (slow 4G, 4x CPU slowdown).
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  version = lhr.lighthouseVersion;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]),
  ) as Run['scores'];
  const metric = (id: string) => lhr.audits[id]?.displayValue ?? '-';
  const weighted = new Set(
    Object.values(lhr.categories).flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => r.id)),
  );
  const failed = Object.values(lhr.audits)
    .filter((a) => weighted.has(a.id) && a.score !== null && a.score < 0.9)
    .map((a) => `${a.id} (${a.score}${a.displayValue ? `, ${a.displayValue}` : ''})`);
  return {
    scores,
    metrics: {
      FCP: metric('first-contentful-paint'),
      LCP: metric('largest-contentful-paint'),
      TBT: metric('total-blocking-time'),
      CLS: metric('cumulative-layout-shift'),
      SI: metric('speed-index'),
    },
    failed,
  };
}

/**
 * Lighthouse (mobile, simulated throttling) on the four public pages in both languages, as a visitor, against the
 * production build: the median run of each by performance score.
 */
export async function benchLighthouse(settings: Settings): Promise<SectionResult> {
  const section: SectionResult = {
    id: 'lighthouse',
    title: 'Lighthouse (mobile) on the public pages',
    ranAt: new Date().toISOString(),
    quick: settings.quick,
    command: 'npm run bench -- lighthouse',
    checks: [],
    notes: [],
    details: [],
  };
  if (!ensureWebBuild()) {
    section.checks.push({ what: 'web build', measured: 'vite build failed', budget: 'builds', pass: false });
    return section;
  }
  const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS) || (settings.quick ? 1 : 3);
  const dir = join(WORK_DIR, 'lighthouse');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target: DatabaseTarget = { kind: 'pglite', dataDir: dir };
  const database = await openTarget(target);
  const [admin] = await seedUsers(database.db, { count: 1, credits: 0, prefix: 'admin', isAdmin: true });
  await seedWorkflows(database.db, admin!.id, 12);
  await database.close();

  const server = await startServer({
    database: target,
    port: PORTS.server,
    logFile: join(dir, 'server.log'),
  });
  const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  const loadBefore = loadText();
  const rows: string[] = [];
  const metricRows: string[] = [];
  const failures: string[] = [];
  try {
    // One load first, so the server's own first-request work is not counted as a page's.
    await audit(`${server.url}/?lng=en`, chrome.port);
    for (const page of PAGES) {
      for (const lng of LANGUAGES) {
        const url = `${server.url}${page}?lng=${lng}`;
        const samples: Run[] = [];
        for (let i = 0; i < runs; i++) {
          // A page Lighthouse could not record three times over loses that run, not the whole section.
          try {
            samples.push(await audit(url, chrome.port));
          } catch (err) {
            console.warn(`bench: lighthouse: ${url}: ${String(err)}`);
          }
        }
        if (!samples.length) {
          section.checks.push({
            what: `${page}?lng=${lng}`,
            measured: 'no run recorded',
            budget: `each >= ${BUDGET}`,
            pass: false,
          });
          continue;
        }
        const perf = median(samples.map((s) => s.scores.performance));
        const chosen = samples.find((s) => s.scores.performance === perf) ?? samples[0]!;
        const low = CATEGORIES.filter((c) => chosen.scores[c] < BUDGET);
        section.checks.push({
          what: `${page}?lng=${lng}`,
          measured: CATEGORIES.map((c) => `${SHORT[c]} ${chosen.scores[c]}`).join(', '),
          budget: `each >= ${BUDGET}`,
          pass: low.length === 0,
        });
        rows.push(
          `| ${page} | ${lng} | ${CATEGORIES.map((c) => chosen.scores[c]).join(' | ')} | ${samples.map((s) => s.scores.performance).join(', ')} |`,
        );
        metricRows.push(`| ${page} | ${lng} | ${Object.values(chosen.metrics).join(' | ')} |`);
        if (chosen.failed.length) failures.push(`- ${page}?lng=${lng}: ${chosen.failed.join('; ')}`);
      }
    }
  } finally {
    await chrome.kill();
    await server.stop();
  }
  const loadAfter = loadText();
  writeFileSync(join(dir, 'load.txt'), `${loadBefore}\n${loadAfter}\n`);
  section.details.push(
    '',
    "Scores (the median run by performance; every run's performance score in the last column):",
    '',
    '| page | language | performance | accessibility | best practices | SEO | performance of each run |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'Metrics of the same runs (simulated mobile):',
    '',
    '| page | language | FCP | LCP | TBT | CLS | Speed Index |',
    '|---|---|---|---|---|---|---|',
    ...metricRows,
    '',
    failures.length ? 'Audits scored under 0.9 in those runs:' : 'No weighted audit scored under 0.9.',
    ...(failures.length ? ['', ...failures] : []),
  );
  section.notes.push(
    `Lighthouse ${version} through its Node API, Debian's /usr/bin/chromium (${CHROME_FLAGS.join(' ')}), its default mobile emulation and simulated throttling (slow 4G, 4x CPU slowdown), as a visitor (no cookies; Lighthouse clears the origin's storage before each run); the production server on 127.0.0.1 (PGlite, 12 workflows); ${runs} run(s) per page and language.`,
    `Load average (1, 5, 15 min) of the machine: ${loadBefore} before the runs, ${loadAfter} after. The simulated CPU slowdown multiplies the time the page's work took on this machine: other work on its two cores lowers the performance score (total blocking time above all), so a loaded machine's figures are pessimistic.`,
  );
  return section;
}
