import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds. */
  endTime: number;
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code comes from: a package, node itself, our server, or V8's own bookkeeping. */
function origin(url: string, functionName: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return `node (${url.slice(5)})`;
  if (url.includes('/server/')) return `flujo ${url.slice(url.indexOf('/server/') + 1).replace(/\.js$/, '')}`;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  return url;
}

interface ProfileSummary {
  byOrigin: Array<{ name: string; share: number }>;
  byFunction: Array<{ name: string; share: number }>;
}

function ranked(totals: Map<string, number>, all: number, top: number) {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, hits]) => ({ name, share: hits / all }));
}

/**
 * Self time of a --cpu-prof profile, grouped by where the code comes from and by function, largest first:
 * what a request spends its time on.
 */
function summariseProfile(
  dir: string,
  window: { loadMs: number; afterLoadMs: number },
  top = 12,
): ProfileSummary | null {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return null;
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
  // Only the samples taken while the load ran: start-up (module loading, database opening) and shutdown are
  // not what a request costs.
  const to = profile.endTime - window.afterLoadMs * 1000;
  const from = to - window.loadMs * 1000;
  const hitsOf = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((nodeId, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from && at <= to) hitsOf.set(nodeId, (hitsOf.get(nodeId) ?? 0) + 1);
  });
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let all = 0;
  for (const node of profile.nodes) {
    const hits = hitsOf.get(node.id) ?? 0;
    if (!hits) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = origin(url, functionName);
    byOrigin.set(where, (byOrigin.get(where) ?? 0) + hits);
    const fn = `${functionName || '(anonymous)'} (${where}${url ? `:${lineNumber + 1}` : ''})`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + hits);
    all += hits;
  }
  return { byOrigin: ranked(byOrigin, all, top), byFunction: ranked(byFunction, all, top) };
}

/**
 * Where the server's CPU goes under a load: starts a server with --cpu-prof (which it stops again), runs the
 * load once, and returns the summary as lines for RESULTS.md.
 */
export async function profileUnderLoad(options: {
  label: string;
  profileDir: string;
  seconds: number;
  start: (nodeArgs: string[]) => Promise<{ url: string; stop(): Promise<void> }>;
  load: (url: string) => Promise<unknown>;
}): Promise<string[]> {
  const server = await options.start(['--cpu-prof', '--cpu-prof-dir', options.profileDir]);
  await options.load(server.url);
  const stopping = performance.now();
  await server.stop();
  const profile = summariseProfile(options.profileDir, {
    loadMs: options.seconds * 1000 - 500,
    afterLoadMs: performance.now() - stopping,
  });
  if (!profile) return [];
  const list = (rows: Array<{ name: string; share: number }>) =>
    rows.map((r) => `- ${r.name}: ${Math.round(r.share * 1000) / 10}%`);
  return [
    '',
    `${options.label}: CPU profile of the server under the same load (self time while the load ran, ${options.profileDir.slice(options.profileDir.indexOf('bench/'))}):`,
    '',
    'by origin:',
    '',
    ...list(profile.byOrigin),
    '',
    'by function:',
    '',
    ...list(profile.byFunction),
  ];
}
