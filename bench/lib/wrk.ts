import { spawn, spawnSync } from 'node:child_process';
import { CPUS, pinned } from './server.js';
import { median, sleep } from './stats.js';

export interface WrkOptions {
  url: string;
  connections: number;
  seconds: number;
  /** A wrk Lua script (custom methods, headers, bodies). */
  script?: string;
  headers?: Record<string, string>;
}

export interface WrkResult {
  requests: number;
  rps: number;
  /** Answers outside 2xx/3xx: any is a failed round. */
  errors: number;
  socketErrors: number;
  latencyMs: number;
}

export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

/** One wrk run from its own core; the figures are parsed from wrk's summary. */
export async function wrk(options: WrkOptions): Promise<WrkResult> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '10s'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (options.script) args.push('-s', options.script);
  args.push(options.url);
  const [command, full] = pinned(CPUS.load, 'wrk', args);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(command, full, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk failed: ${text}`))));
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN);
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? Number.NaN);
  const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  const latency = /Latency\s+([\d.]+)(us|ms|s|m)/.exec(output);
  if (!Number.isFinite(rps)) throw new Error(`could not read wrk's output:\n${output}`);
  return {
    requests,
    rps,
    errors,
    socketErrors,
    latencyMs: latency ? toMs(latency[1]!, latency[2]!) : Number.NaN,
  };
}

export interface Contest {
  name: string;
  /** One timed round; answers its rate in operations per second. */
  round(seconds: number): Promise<number>;
}

export interface ContestResult {
  rounds: Record<string, number[]>;
  medians: Record<string, number>;
}

/**
 * Warms every contender up, then runs them in alternation for several rounds, so that noise from other work
 * on the machine falls on all of them alike; medians per contender.
 */
export async function runContest(
  contenders: Contest[],
  settings: { warmupSeconds: number; roundSeconds: number; rounds: number },
): Promise<ContestResult> {
  for (const c of contenders) await c.round(settings.warmupSeconds);
  const rounds: Record<string, number[]> = Object.fromEntries(contenders.map((c) => [c.name, []]));
  for (let i = 0; i < settings.rounds; i++) {
    for (const c of contenders) {
      rounds[c.name]!.push(await c.round(settings.roundSeconds));
      await sleep(500);
    }
  }
  const medians = Object.fromEntries(Object.entries(rounds).map(([name, r]) => [name, median(r)]));
  return { rounds, medians };
}
