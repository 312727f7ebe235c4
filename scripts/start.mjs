// `npm start`: build whatever is missing or older than its sources, then run the compiled server.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function outdated(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some(
    (s) => existsSync(s) && (statSync(s).isDirectory() ? newest(s) : statSync(s).mtimeMs) > built,
  );
}

function run(cmd, args) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const shared = ['src/shared', 'package.json'];
if (outdated('dist/web/index.html', ['src/web', 'vite.config.ts', ...shared])) {
  console.log('Building the web app...');
  run('npx', ['vite', 'build', '--logLevel', 'warn']);
}
// The build mirrors the repository (tsconfig.server.json), so the demo services in demo/ compile beside src/.
if (outdated('dist/src/server/main.js', ['src/server', 'demo', 'tsconfig.server.json', ...shared])) {
  console.log('Compiling the server...');
  run('npx', ['tsc', '-p', 'tsconfig.server.json']);
}
// Cheap, and a build compiled before the import aliases existed lacks it.
run('node', ['scripts/build-package.mjs', 'dist']);

process.env.NODE_ENV ??= 'production';
process.env.HOST ??= '127.0.0.1';
await import('../dist/src/server/main.js');
