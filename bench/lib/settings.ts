/**
 * Durations and sizes of every benchmark. `--quick` (or BENCH_QUICK=1) shrinks them for a smoke run that
 * proves the harness works; its figures are not results.
 */
export interface Settings {
  quick: boolean;
  warmupSeconds: number;
  roundSeconds: number;
  rounds: number;
  /** Cold page loads per page in Chromium. */
  pageLoads: number;
  /** Requests per endpoint when timing the lists on the large database. */
  listSamples: number;
  scale: { users: number; workflows: number; runs: number; ledgerRows: number; auditRows: number };
  footprintRequests: [number, number];
}

export function loadSettings(argv: string[] = process.argv.slice(2)): Settings {
  const quick = argv.includes('--quick') || process.env.BENCH_QUICK === '1';
  const settings = pick(quick);
  // --scale-factor=0.1 seeds a tenth of the large data set (a rehearsal; the budgets are for the full one).
  const factor = Number(
    /^--scale-factor=([\d.]+)$/.exec(argv.find((a) => a.startsWith('--scale-factor=')) ?? '')?.[1],
  );
  if (factor > 0) {
    settings.scale = Object.fromEntries(
      Object.entries(settings.scale).map(([k, v]) => [k, Math.max(1, Math.round(v * factor))]),
    ) as Settings['scale'];
  }
  return settings;
}

function pick(quick: boolean): Settings {
  return quick
    ? {
        quick,
        warmupSeconds: 1,
        roundSeconds: 2,
        rounds: 3,
        pageLoads: 2,
        listSamples: 5,
        scale: { users: 2_000, workflows: 100, runs: 20_000, ledgerRows: 60_000, auditRows: 1_000 },
        footprintRequests: [1_000, 5_000],
      }
    : {
        quick,
        warmupSeconds: 3,
        roundSeconds: 10,
        rounds: 3,
        pageLoads: 5,
        listSamples: 21,
        scale: {
          users: 100_000,
          workflows: 5_000,
          runs: 1_000_000,
          ledgerRows: 3_000_000,
          auditRows: 50_000,
        },
        footprintRequests: [10_000, 100_000],
      };
}
