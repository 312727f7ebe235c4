#!/usr/bin/env node
// Installs the n8n release the Flujo node package declares into a cache folder outside the repository, once.
// The n8n end-to-end test calls it on first use, and CI's install phase calls it so the install (about 2 GB,
// several minutes) is paid once per machine, like Playwright's browsers. Idempotent: a finished install has a
// marker file; lock-protected: concurrent callers wait on a lock directory instead of installing twice.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The n8n release the node package is tested against (its README and docs/builders.md name it too).
export const N8N_VERSION = '1.123.50';

const LOCK_STALE_MS = 60 * 60 * 1000;

/**
 * n8n-nodes-base names its xlsx dependency by a tarball address on cdn.sheetjs.com rather than the registry;
 * where only the registry is reachable (CI, this sandbox) that one download fails the whole install. The
 * registry's last xlsx release stands in for it: only n8n's spreadsheet nodes use it, and Flujo's test uses
 * none of them.
 */
const XLSX_OVERRIDE = { xlsx: '0.18.5' };

export function n8nCacheDir() {
  const base = process.env.FLUJO_N8N_CACHE ?? path.join(os.homedir(), '.cache', 'flujo');
  return path.join(base, `n8n-${N8N_VERSION}`);
}

function binOf(dir) {
  return path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
}

function isDone(dir) {
  return fs.existsSync(path.join(dir, '.installed')) && fs.existsSync(binOf(dir));
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function takeLock(lockDir, log) {
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    // Someone holds the lock: wait unless its owner died or it is older than any real install.
    let stale = false;
    try {
      const pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
      const age = Date.now() - fs.statSync(lockDir).mtimeMs;
      stale = (Number.isInteger(pid) && pid > 0 && !pidAlive(pid)) || age > LOCK_STALE_MS;
    } catch {
      // The pid file is written right after mkdir; a missing one is a lock being taken or released.
    }
    if (stale) {
      log('n8n: removing a stale install lock');
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    sleep(2000);
  }
}

const logToStderr = (line) => process.stderr.write(`${line}\n`);

/**
 * Runs `work` once across every caller: nothing when `done()` holds, else under the cache's install lock, checked
 * again once the lock is taken (another caller may have done the work meanwhile).
 */
function onceUnderLock(dir, done, log, work) {
  if (done()) return;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const lockDir = `${dir}.lock`;
  takeLock(lockDir, log);
  try {
    if (!done()) work();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/** Runs npm with `args` in `cwd`, its output to this process's; throws `failure` when it fails. */
function npm(args, cwd, failure) {
  const result = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0)
    throw new Error(`n8n: ${failure} (npm's status ${result.status ?? result.signal})`);
}

/** Returns the n8n binary's path, installing n8n from the registry first if the cache lacks it. */
export function ensureN8n({ log = logToStderr } = {}) {
  const dir = n8nCacheDir();
  onceUnderLock(
    dir,
    () => isDone(dir),
    log,
    () => {
      const partial = `${dir}.partial`;
      fs.rmSync(partial, { recursive: true, force: true });
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(partial, { recursive: true });
      fs.writeFileSync(
        path.join(partial, 'package.json'),
        JSON.stringify({ name: 'flujo-n8n-cache', private: true, overrides: XLSX_OVERRIDE }, null, 2),
      );
      log(`n8n: installing n8n@${N8N_VERSION} into ${dir} (a few minutes, once)`);
      const started = Date.now();
      // No install scripts: they compile native addons from source here (their prebuilt binaries are not on the
      // registry), half of the install's CPU, and n8n on PostgreSQL needs none of them. SQLite's driver is
      // compiled when asked for (sqliteDriver).
      npm(
        [
          'install',
          `n8n@${N8N_VERSION}`,
          '--omit=dev',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          '--ignore-scripts',
        ],
        partial,
        'npm install failed',
      );
      if (!fs.existsSync(binOf(partial))) throw new Error('n8n: the install has no bin/n8n');
      fs.writeFileSync(path.join(partial, '.installed'), `${N8N_VERSION}\n`);
      fs.renameSync(partial, dir);
      log(`n8n: installed in ${Math.round((Date.now() - started) / 1000)} s`);
    },
  );
  return { dir, bin: binOf(dir) };
}

/**
 * Compiles n8n's SQLite driver in the cache, once (`npm rebuild sqlite3`, its install script): for an n8n that keeps
 * its data in SQLite, n8n's default, as the builder-minutes bench runs it.
 */
function sqliteDriver(dir, { log = logToStderr } = {}) {
  const built = path.join(dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node');
  onceUnderLock(
    dir,
    () => fs.existsSync(built),
    log,
    () => {
      log("n8n: compiling n8n's SQLite driver (once)");
      npm(['rebuild', 'sqlite3', '--loglevel=error'], dir, 'the SQLite driver did not build');
      if (!fs.existsSync(built)) throw new Error('n8n: the SQLite driver did not build');
    },
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { dir, bin } = ensureN8n();
  if (process.argv.includes('--sqlite')) sqliteDriver(dir);
  process.stdout.write(`${bin}\n`);
}
