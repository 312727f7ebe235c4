import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TApiKeyCreated } from '#shared/contract/api-keys.js';
import { fromProjectRoot } from '#server/lib/project-root.js';
import { signUpUser, startRunsWorld, type RunsWorld } from '../executions/testing/fixtures.js';

/*
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in devDependencies) against
 * the app on a port, through the scenarios that need no fixtures of the reference server. The suite needs
 * Node 22+, so it runs on the registry's node@24 (STACK-NOTES); it cannot send an Authorization header, so a
 * loopback proxy in front adds the key, as a reverse proxy would sit in front of a deployment. PUBLIC_URL is
 * the proxy's address, the address clients use.
 */

const run = promisify(execFile);
const SUITE = fromProjectRoot('node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const;

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

let w: RunsWorld;
let proxy: Server;
let proxyUrl: string;
let key = '';
let outDir: string;
/** The registry's Node 24, found once: each `npx -p node@24` costs seconds of npm's own work before the suite starts. */
let node24: string;

/** Forwards every request to the app unchanged (Host and Origin included), adding the key. */
function startProxy(target: () => URL): Promise<Server> {
  const server = createServer((req, res) => {
    const to = target();
    const forward = httpRequest(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${key}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  proxy = await startProxy(() => new URL(w.baseUrl));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  w = await startRunsWorld({ DEMO_WORKFLOWS: 'true', PUBLIC_URL: proxyUrl });
  const user = await signUpUser(w.t);
  key = (await user.client.post('/api/account/api-keys', { name: 'conformance' })).json<TApiKeyCreated>().key;
  outDir = await mkdtemp(join(tmpdir(), 'flujo-conformance-'));
  node24 = (
    await run('npx', ['-y', '-p', 'node@24', '--', 'node', '-p', 'process.execPath'], { timeout: 180_000 })
  ).stdout.trim();
}, 200_000);

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await w?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

/** Runs one scenario; its checks as the suite wrote them to its output folder. */
async function scenario(name: string): Promise<Check[]> {
  const dir = join(outDir, name);
  await run(node24, [SUITE, 'server', '--url', `${proxyUrl}/mcp`, '--scenario', name, '-o', dir], {
    timeout: 180_000,
  }).catch((err: unknown) => err); // a failed check exits non-zero; the checks below say which
  const files = await readdir(dir, { recursive: true });
  const checksFile = files.find((f) => f.endsWith('checks.json'));
  if (!checksFile) throw new Error(`The suite wrote no checks for ${name}: ${files.join(', ')}`);
  return JSON.parse(await readFile(join(dir, checksFile), 'utf8')) as Check[];
}

describe('the official MCP conformance suite', () => {
  it.each(SCENARIOS)(
    'passes %s',
    async (name) => {
      const checks = await scenario(name);
      expect(checks.length).toBeGreaterThan(0);
      expect(checks.filter((c) => c.status !== 'SUCCESS')).toEqual([]);
    },
    200_000,
  );
});
