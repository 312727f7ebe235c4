// `npm run bench [-- <name>...] [--quick]`: runs the benchmarks (TypeScript, through tsx) and writes
// bench/RESULTS.md. Never part of `npm test`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const res = spawnSync(process.execPath, ['--import', 'tsx', main, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(res.status ?? 1);
