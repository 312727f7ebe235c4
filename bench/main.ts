import { benchApiRuns } from './api-runs.js';
import { benchBuilderMinutes } from './builder-minutes.js';
import { benchCatalogue } from './catalogue.js';
import { benchChatStream } from './chat-stream.js';
import { benchFootprint } from './footprint.js';
import { benchLighthouse } from './lighthouse.js';
import { benchPageWeight } from './page-weight.js';
import { benchRunEvents } from './run-events.js';
import { benchRunStart } from './run-start.js';
import { benchScale } from './scale.js';
import { benchSchedules } from './schedules.js';
import { ensureServerBuild } from './lib/build.js';
import { saveSection, type SectionResult } from './lib/results.js';
import { loadSettings, type Settings } from './lib/settings.js';
import { wrkAvailable } from './lib/wrk.js';

const BENCHMARKS: Record<string, (settings: Settings) => Promise<SectionResult>> = {
  catalogue: benchCatalogue,
  'run-start': benchRunStart,
  'api-runs': benchApiRuns,
  'page-weight': benchPageWeight,
  lighthouse: benchLighthouse,
  scale: benchScale,
  footprint: benchFootprint,
  'chat-stream': benchChatStream,
  'run-events': benchRunEvents,
  schedules: benchSchedules,
  'builder-minutes': benchBuilderMinutes,
};

/** The page benchmarks drive a browser, and scale times one request at a time: none needs a load generator. */
const WITHOUT_WRK = new Set(['page-weight', 'lighthouse', 'schedules', 'scale', 'builder-minutes']);
/**
 * Run only when named: the builder's minutes need n8n (about 2 GB, installed on first use) and measure a
 * person's way through n8n's editor, not the server against the machine.
 */
const ON_REQUEST = new Set(['builder-minutes']);
/** The schedules benchmark runs the job in its own process: it needs no server build. */
const WITHOUT_SERVER = new Set(['schedules']);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const settings = loadSettings(args);
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = names.filter((n) => !(n in BENCHMARKS));
  if (unknown.length) {
    console.error(
      `Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(BENCHMARKS).join(', ')}`,
    );
    process.exit(2);
  }
  const selected = names.length ? names : Object.keys(BENCHMARKS).filter((n) => !ON_REQUEST.has(n));
  if (selected.some((n) => !WITHOUT_WRK.has(n)) && !wrkAvailable()) {
    console.error('wrk is needed for the load (Debian/Ubuntu: apt-get install -y wrk).');
    process.exit(2);
  }
  if (selected.some((n) => !WITHOUT_SERVER.has(n))) ensureServerBuild();
  let missed = 0;
  for (const name of selected) {
    const started = Date.now();
    console.log(`bench: ${name}...`);
    let section: SectionResult;
    try {
      section = await BENCHMARKS[name]!(settings);
    } catch (err) {
      // One broken benchmark must not hide the others' figures.
      console.error(err);
      section = {
        id: name,
        title: name,
        ranAt: new Date().toISOString(),
        quick: settings.quick,
        command: '',
        checks: [
          { what: 'benchmark ran', measured: String(err).slice(0, 200), budget: 'no error', pass: false },
        ],
        notes: [],
        details: [],
      };
    }
    section.command = `npm run bench -- ${name}${settings.quick ? ' --quick' : ''}`;
    await saveSection(section);
    for (const c of section.checks) {
      const verdict = c.pass === null ? 'reported' : c.pass ? 'met' : 'MISSED';
      console.log(
        `  ${c.what}: ${c.measured}${c.ratio ? ` (ratio ${c.ratio}, budget ${c.budget})` : ` (budget ${c.budget})`} ${verdict}`,
      );
      if (c.pass === false) missed++;
    }
    console.log(`bench: ${name} took ${Math.round((Date.now() - started) / 1000)} s`);
  }
  console.log(`bench: results in bench/RESULTS.md${missed ? `; ${missed} budget(s) missed` : ''}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
