// Compiles the server into dist/ when its sources are newer than the build, if the compiler is installed.
// Shared by `npm start` and the command lines (`npm run admin`, `npm run backup`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/** Whether `output` is missing or older than any of `sources` (files or folders). */
export function outdated(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some(
    (s) => existsSync(s) && (statSync(s).isDirectory() ? newest(s) : statSync(s).mtimeMs) > built,
  );
}

/** Runs a command in the foreground; exits with its code if it fails. */
export function run(cmd, args) {
  const res = spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

export const SHARED_SOURCES = ['src/shared', 'package.json'];
/** The built web app's entry, and what it is built from. */
export const WEB_ENTRY = 'dist/web/index.html';
export const WEB_SOURCES = ['src/web', 'vite.config.ts', ...SHARED_SOURCES];
export const SERVER_ENTRY = 'dist/src/server/main.js';

/** Whether the TypeScript compiler is installed (it is a devDependency: absent after `npm ci --omit=dev`). */
export function canCompile() {
  try {
    createRequire(import.meta.url).resolve('typescript/package.json');
    return true;
  } catch {
    return false;
  }
}

/**
 * Compiles the server (tsconfig.server.json mirrors the repository, so the demo services in demo/ compile
 * beside src/) when it is missing or older than its sources, and writes the build's package.json. `say` gets
 * the progress line.
 */
export function ensureServerBuild(say = console.log) {
  if (outdated(SERVER_ENTRY, ['src/server', 'demo', 'tsconfig.server.json', ...SHARED_SOURCES])) {
    say('Compiling the server...');
    run('npx', ['tsc', '-p', 'tsconfig.server.json']);
  }
  // Cheap, and a build compiled before the import aliases existed lacks it.
  run('node', ['scripts/build-package.mjs', 'dist']);
}
