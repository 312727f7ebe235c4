import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { vi } from 'vitest';
import { fromProjectRoot } from '../lib/project-root.js';

/**
 * Process tests run the compiled server and command lines (dist/, as `npm start` and `npm run admin` run them):
 * a process starts in about a second instead of the many seconds tsx takes to compile it again each time, which
 * the crash test pays at each of its restarts. CI builds dist/ once before the suites; elsewhere the first
 * process test compiles what is missing or older than its sources (scripts/server-build.mjs, as `npm start`
 * does), under a lock, since test files in other workers may ask at the same moment.
 */
const LOCK = fromProjectRoot('node_modules/.cache/flujo-server-build.lock');
const BUILD_MS = 600_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Takes the lock, or says which process holds it. */
function tryLock(): number | null {
  mkdirSync(dirname(LOCK), { recursive: true });
  try {
    const fd = openSync(LOCK, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const holder = Number(readFileSync(LOCK, 'utf8')) || 0;
    // A holder that died left its lock behind (an empty file: it died between creating and writing it).
    if (!holder || !alive(holder)) {
      rmSync(LOCK, { force: true });
      return tryLock();
    }
    return holder;
  }
}

async function build(): Promise<void> {
  // Another worker's build ends by removing the lock; nothing announces that, so the lock is looked at.
  await vi.waitFor(
    () => {
      const holder = tryLock();
      if (holder !== null) throw new Error(`process ${holder} is compiling the server`);
    },
    { timeout: BUILD_MS, interval: 200 },
  );
  try {
    const res = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { ensureServerBuild } from './scripts/server-build.mjs'; ensureServerBuild(console.error);",
      ],
      { cwd: fromProjectRoot(''), encoding: 'utf8', timeout: BUILD_MS },
    );
    if (res.status !== 0) throw new Error(`the server did not compile\n${res.stdout}${res.stderr}`);
  } finally {
    rmSync(LOCK, { force: true });
  }
}

// While the test file loads, before any test's or hook's timer runs: compiling on a busy machine can take
// longer than a hook may.
await build();

/** The compiled build's folder (dist/), up to date with the sources. */
export const COMPILED_BUILD = fromProjectRoot('dist');

/** The compiled file of a server source, e.g. `cli/admin` for src/server/cli/admin.ts. */
export function compiled(serverPath: string): string {
  return join(COMPILED_BUILD, 'src', 'server', `${serverPath}.js`);
}
