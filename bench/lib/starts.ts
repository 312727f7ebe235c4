import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ledgerMismatches } from '../../src/server/test/ledger-check.js';
import type { BareDebitOptions } from './bare-debit.js';
import { ROOT } from './paths.js';
import type { Check } from './results.js';
import { openTarget } from './seed.js';
import type { DatabaseTarget } from './server.js';
import { startWorker } from './worker.js';
import { profileUnderLoad } from './profile.js';
import { startServer, type ServerOptions } from './server.js';
import { round } from './stats.js';
import { wrk, type Contest, type ContestResult } from './wrk.js';

/**
 * The load of the run-start benchmarks (the web's start and the API's): this many callers, each with this many
 * credits given through the ledger, sending at this concurrency; and the budget against the bare debit.
 */
export const STARTS = { concurrency: 20, users: 200, credits: 1_000_000, budget: 0.45 } as const;

/**
 * The limit of a start: the bare debit transaction in a worker on the server's core (options written to
 * `dir`), as a contender named "bare".
 */
export async function startBareDebit(
  dir: string,
  options: Omit<BareDebitOptions, 'concurrency'>,
): Promise<{ contender: Contest; stop(): Promise<void> }> {
  const file = join(dir, 'bare-debit.json');
  writeFileSync(file, JSON.stringify({ ...options, concurrency: STARTS.concurrency }));
  const worker = await startWorker(join(ROOT, 'bench', 'lib', 'bare-debit.ts'), file);
  return {
    contender: { name: 'bare', round: async (seconds) => Number(await worker.ask(String(seconds))) },
    stop: () => worker.stop(),
  };
}

/** The checks every start (or submit) benchmark ends with: no failed request, and the books balance afterwards. */
export async function startChecks(
  label: string,
  target: DatabaseTarget,
  counted: { requests: number; errors: number },
  /** What the load sent, for the check's name. */
  requests = 'starts',
): Promise<Check[]> {
  const database = await openTarget(target);
  const mismatches = await ledgerMismatches(database.db);
  await database.close();
  return [
    {
      what: `${label}: failed ${requests} during the load`,
      measured: `${counted.errors} of ${counted.requests}`,
      budget: '0',
      pass: counted.errors === 0,
    },
    {
      what: `${label}: ledger mismatches afterwards (balance vs ledger sum, negative balances)`,
      measured: String(mismatches.length),
      budget: '0',
      pass: mismatches.length === 0,
    },
  ];
}

/** The round-by-round figures of a start contest, for the details. */
export function startRounds(label: string, contest: ContestResult): string {
  const list = (name: string) => contest.rounds[name]!.map((r) => round(r)).join(', ');
  return `${label} rounds (/s): flujo ${list('flujo')}; bare ${list('bare')}.`;
}

/**
 * Where the server's CPU goes under the same start load: a fresh server (`server`, logging beside the
 * profile) profiled for one round of `path` driven by the wrk `script`.
 */
export function profileStarts(options: {
  label: string;
  dir: string;
  seconds: number;
  server: Omit<ServerOptions, 'logFile' | 'nodeArgs'>;
  path: string;
  script: string;
}): Promise<string[]> {
  const { dir, seconds } = options;
  return profileUnderLoad({
    label: options.label,
    profileDir: join(dir, 'profile'),
    seconds,
    start: (nodeArgs) =>
      startServer({ ...options.server, logFile: join(dir, 'server-profiled.log'), nodeArgs }),
    load: (url) =>
      wrk({ url: `${url}${options.path}`, connections: STARTS.concurrency, seconds, script: options.script }),
  });
}
