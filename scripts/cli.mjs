// `npm run admin` / `npm run backup`: the compiled command line (dist/src/server/cli/<name>.js) run by node,
// so that it works where only the dependencies are installed (`npm run build`, then `npm ci --omit=dev`).
// Where the compiler is installed (a checkout), a server build older than its sources is compiled first,
// as `npm start` does. Usage: node scripts/cli.mjs <admin|backup> [arguments...]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { canCompile, ensureServerBuild, outdated, SHARED_SOURCES } from './server-build.mjs';

const COMMANDS = ['admin', 'backup'];
const [name, ...args] = process.argv.slice(2);
if (!COMMANDS.includes(name)) {
  console.error(`usage: node scripts/cli.mjs <${COMMANDS.join('|')}> [arguments...]`);
  process.exit(64);
}
const entry = `dist/src/server/cli/${name}.js`;

// Progress goes to stderr: a command's standard output is its answer.
if (canCompile()) ensureServerBuild(console.error);
else if (!existsSync(entry)) {
  console.error(`${entry} is missing: build first (npm run build), then install without devDependencies.`);
  process.exit(1);
} else if (outdated(entry, ['src/server', ...SHARED_SOURCES])) {
  console.error(
    `Warning: ${entry} is older than the sources, and the compiler is not installed to rebuild it.`,
  );
}

const res = spawnSync(process.execPath, [entry, ...args], { stdio: 'inherit' });
process.exit(res.status ?? 1);
