import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The project root (bench/ sits directly below it). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Everything a benchmark writes that is not a result: builds, data directories, logs (gitignored). */
export const WORK_DIR = join(ROOT, 'bench', '.data');
/** A private build, so that a benchmark never races another engineer's `npm run build` into dist/. */
export const BUILD_DIR = join(WORK_DIR, 'build');
export const SERVER_ENTRY = join(BUILD_DIR, 'dist', 'src', 'server', 'main.js');
export const WEB_DIR = join(BUILD_DIR, 'web');
export const RESULTS_JSON = join(ROOT, 'bench', 'results.json');
export const RESULTS_MD = join(ROOT, 'bench', 'RESULTS.md');
export const PLANS_DIR = join(ROOT, 'bench', 'plans');

/**
 * Ports of their own, away from the dev server (3000) and the e2e servers (31xx); BENCH_PORT moves both, so
 * that two checkouts can run benchmarks at once.
 */
const BASE_PORT = Number(process.env.BENCH_PORT ?? 3950);
export const PORTS = { server: BASE_PORT, raw: BASE_PORT + 1, webhook: BASE_PORT + 2 } as const;

/** The PostgreSQL server the benchmarks create their `flujo_bench_*` databases on. */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function pgUrl(database: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}
