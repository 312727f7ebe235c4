import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BUILD_DIR, ROOT, SERVER_ENTRY, WEB_DIR } from './paths.js';

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function outdated(output: string, sources: string[]): boolean {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((s) => existsSync(join(ROOT, s)) && newest(join(ROOT, s)) > built);
}

function run(command: string, args: string[]): number {
  const res = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  return res.status ?? 1;
}

function linkSources(): void {
  mkdirSync(BUILD_DIR, { recursive: true });
  const srcLink = join(BUILD_DIR, 'src');
  if (!existsSync(srcLink)) symlinkSync(relative(BUILD_DIR, join(ROOT, 'src')), srcLink);
}

const SHARED = ['src/shared', 'package.json'];

/**
 * Compiles the server into bench/.data/build, as `npm run build` does into dist/. The compiled server finds
 * its migrations below the build's parent (src/server/db/migrations), so a link to src/ sits beside the build.
 */
export function ensureServerBuild(): void {
  linkSources();
  if (!outdated(SERVER_ENTRY, ['src/server', 'demo', 'tsconfig.server.json', ...SHARED])) return;
  console.log('bench: compiling the server...');
  // tsc still writes its output when a file someone is editing has a type error; the run goes on then.
  const status = run('npx', ['tsc', '-p', 'tsconfig.server.json', '--outDir', join(BUILD_DIR, 'dist')]);
  if (!existsSync(SERVER_ENTRY)) throw new Error('server compilation produced nothing');
  if (run('node', ['scripts/build-package.mjs', join(BUILD_DIR, 'dist')]) !== 0) {
    throw new Error('could not write the build package.json');
  }
  if (status !== 0) console.warn('bench: tsc reported type errors; running the emitted server anyway');
}

/**
 * Builds and precompresses the web app into bench/.data/build/web (the server serves it through WEB_DIR);
 * false if it fails.
 */
export function ensureWebBuild(): boolean {
  linkSources();
  if (outdated(join(WEB_DIR, 'index.html'), ['src/web', 'vite.config.ts', ...SHARED])) {
    console.log('bench: building the web app...');
    if (run('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', WEB_DIR, '--emptyOutDir']) !== 0) {
      return false;
    }
  }
  // As `npm run build`: the server sends the .br/.gz files beside each asset (cheap when they are fresh).
  return run('node', ['scripts/precompress.mjs', WEB_DIR]) === 0;
}
