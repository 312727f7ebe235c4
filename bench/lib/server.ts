import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { ROOT, SERVER_ENTRY, WEB_DIR } from './paths.js';
import { sleep } from './stats.js';

export type DatabaseTarget = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

/** Cores for the server under test and for the load generator, when the machine has two and taskset. */
export const CPUS = detectCpus();

function detectCpus(): { server: string | null; load: string | null } {
  const hasTaskset = spawnSync('taskset', ['--version']).status === 0;
  const cores = Number(spawnSync('nproc').stdout?.toString().trim() || '1');
  if (!hasTaskset || cores < 2) return { server: null, load: null };
  return { server: String(cores - 1), load: '0' };
}

/** Prefixes a command with taskset when a core is given. */
export function pinned(cpu: string | null, command: string, args: string[]): [string, string[]] {
  return cpu === null ? [command, args] : ['taskset', ['-c', cpu, command, ...args]];
}

export interface RunningServer {
  url: string;
  pid: number;
  /** Milliseconds from spawning the process to its first answered request. */
  startMs: number;
  rssMb(): number;
  stop(): Promise<void>;
}

export interface ServerOptions {
  database: DatabaseTarget;
  port: number;
  /** pino's level; production runs at info. */
  logLevel?: string;
  /** Where the server's stdout (its request log) goes. */
  logFile: string;
  env?: Record<string, string>;
  /** Node flags, e.g. --cpu-prof. */
  nodeArgs?: string[];
  /** The command that starts the server; default: node on the compiled entry. */
  command?: [string, string[]];
}

function rssMbOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** Starts the production server as `npm start` would, pinned to its core, and waits for its first answer. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const url = `http://127.0.0.1:${options.port}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    PUBLIC_URL: url,
    LOG_LEVEL: options.logLevel ?? 'info',
    WEB_DIR,
    DEMO_WORKFLOWS: 'false',
    ...(options.database.kind === 'pglite'
      ? { DATA_DIR: options.database.dataDir, DATABASE_URL: '' }
      : // The benches make no purchases, but a server on PostgreSQL wants the payment provider named.
        { DATABASE_URL: options.database.url, PAYMENT_PROVIDER: 'demo' }),
    ...options.env,
  };
  const [command, args] = pinned(
    CPUS.server,
    ...(options.command ?? [process.execPath, [...(options.nodeArgs ?? []), SERVER_ENTRY]]),
  );
  const log = openSync(options.logFile, 'w');
  const started = performance.now();
  const child: ChildProcess = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', log, log] });
  closeSync(log);
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error(`server exited during start; see ${options.logFile}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within 120 s; see ${options.logFile}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(10);
  }
  const startMs = performance.now() - started;
  const pid = child.pid!;
  return {
    url,
    pid,
    startMs,
    rssMb: () => rssMbOf(pid),
    stop: async () => {
      if (exited) return;
      const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(timer);
    },
  };
}
