import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { format, resolveConfig } from 'prettier';
import { join } from 'node:path';
import { RESULTS_JSON, RESULTS_MD, ROOT } from './paths.js';
import { CPUS } from './server.js';

/** One figure next to its limit and its budget. */
export interface Check {
  what: string;
  measured: string;
  /** The physical limit it is compared with, measured in the same run, if any. */
  limit?: string;
  ratio?: string;
  budget: string;
  /** null: reported only, no budget applies. */
  pass: boolean | null;
}

export interface SectionResult {
  id: string;
  title: string;
  ranAt: string;
  quick: boolean;
  command: string;
  checks: Check[];
  notes: string[];
  /** Extra markdown (round-by-round figures, plans). */
  details: string[];
}

interface ResultsFile {
  machine: Record<string, string>;
  sections: Record<string, SectionResult>;
}

function safe(fn: () => string): string {
  try {
    return fn().trim();
  } catch {
    return 'unknown';
  }
}

function packageVersion(name: string): string {
  return safe(
    () =>
      (
        JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version,
  );
}

function describeMachine(): Record<string, string> {
  const cpuModel = safe(() => /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '');
  return {
    cpu: `${cpus().length} cores, ${cpuModel}`,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    os: safe(() => execFileSync('uname', ['-sr']).toString()),
    node: process.version,
    postgresql: safe(() =>
      execFileSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-tAc', 'show server_version']).toString(),
    ),
    // wrk --version exits with 1 after printing its version.
    wrk: safe(() => /wrk (\S+)/.exec(spawnSync('wrk', ['--version']).stdout.toString())?.[1] ?? ''),
    chromium: safe(() =>
      execFileSync('/usr/bin/chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString(),
    ),
    pinning:
      CPUS.server === null
        ? 'none (no taskset or a single core)'
        : `server on core ${CPUS.server}, load generator on core ${CPUS.load} (taskset); PostgreSQL unpinned`,
    packages: [
      'fastify',
      'pino',
      'pg',
      '@electric-sql/pglite',
      'drizzle-orm',
      'react',
      'vite',
      'playwright-core',
    ]
      .map((p) => `${p} ${packageVersion(p)}`)
      .join(', '),
    commit: safe(() => execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString()),
  };
}

function load(): ResultsFile {
  if (!existsSync(RESULTS_JSON)) return { machine: {}, sections: {} };
  return JSON.parse(readFileSync(RESULTS_JSON, 'utf8')) as ResultsFile;
}

const ORDER = [
  'catalogue',
  'run-start',
  'page-weight',
  'lighthouse',
  'scale',
  'footprint',
  'chat-stream',
  'run-events',
];

/** Merges one benchmark's result into bench/results.json and renders bench/RESULTS.md from all of them. */
export async function saveSection(section: SectionResult): Promise<void> {
  const file = load();
  file.machine = describeMachine();
  file.sections[section.id] = section;
  // Formatted as the project's prettier would, so that `npm run lint` stays clean after a run.
  writeFileSync(
    RESULTS_JSON,
    await format(JSON.stringify(file), { ...(await resolveConfig(RESULTS_JSON)), filepath: RESULTS_JSON }),
  );
  writeFileSync(RESULTS_MD, render(file));
}

const verdict = (pass: boolean | null) => (pass === null ? 'reported' : pass ? 'met' : '**missed**');

function render(file: ResultsFile): string {
  const sections = Object.values(file.sections).sort((a, b) => ORDER.indexOf(a.id) - ORDER.indexOf(b.id));
  const all = sections.flatMap((s) => s.checks).filter((c) => c.pass !== null);
  const missed = all.filter((c) => c.pass === false).length;
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/run.mjs); see bench/README.md for what each benchmark does and how to',
    'run one alone. Ratios compare our server with the physical limit measured in the same run, on the same',
    'machine, as medians of several rounds: the absolute figures vary with the machine and its other load.',
    '',
    `**${all.length - missed} of ${all.length} budgets met.** ${missed > 0 ? 'Why the others are missed, and what would fix them' : 'What the figures say, and what was changed to meet them'}:`,
    '[FINDINGS.md](FINDINGS.md).',
    '',
    '## Machine',
    '',
    ...Object.entries(file.machine).map(([k, v]) => `- ${k}: ${v}`),
    '',
  ];
  for (const s of sections) {
    lines.push(`## ${s.title}`, '');
    lines.push(
      `Run ${s.ranAt}${s.quick ? ' with `--quick` (smoke settings: NOT a result)' : ''}: \`${s.command}\``,
    );
    lines.push(
      '',
      '| what | measured | limit (same run) | ratio | budget | verdict |',
      '|---|---|---|---|---|---|',
    );
    for (const c of s.checks) {
      lines.push(
        `| ${c.what} | ${c.measured} | ${c.limit ?? ''} | ${c.ratio ?? ''} | ${c.budget} | ${verdict(c.pass)} |`,
      );
    }
    if (s.notes.length) lines.push('', ...s.notes.map((n) => `- ${n}`));
    if (s.details.length) lines.push('', ...s.details);
    lines.push('');
  }
  return lines.join('\n');
}
