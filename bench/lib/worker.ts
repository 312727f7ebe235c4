import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ROOT } from './paths.js';
import { CPUS, pinned } from './server.js';

export interface LineWorker {
  /** Sends one line and resolves with the worker's one-line answer. */
  ask(line: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts a TypeScript worker on the server's core (it stands in for the server as the limit), waits for its
 * "ready" line, then talks to it one line at a time.
 */
export async function startWorker(script: string, arg: string): Promise<LineWorker> {
  const [command, args] = pinned(CPUS.server, process.execPath, ['--import', 'tsx', script, arg]);
  const child = spawn(command, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`worker ${script} ended`);
    return value;
  };
  const first = await next();
  if (first !== 'ready') throw new Error(`worker ${script} said ${first}`);
  return {
    ask: async (line) => {
      child.stdin.write(`${line}\n`);
      return next();
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end('exit\n');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
