import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ident, postgresTarget, withAdminClient } from '../test/template.js';
import { restorePglite } from './backup.js';

// Starting the server under tsx on a busy 2-core machine can take a minute; the test itself a few seconds.
const STARTUP_DEADLINE_MS = 150_000;
const TEST_TIMEOUT_MS = 240_000;

const dataDir = mkdtempSync(join(tmpdir(), 'flujo-shutdown-test-'));
/** Where the server keeps its data: a PostgreSQL database cloned from the suite's template, or PGlite. */
let databaseUrl = '';
let dropDatabase: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  // A ready-made, migrated database spares the server the cluster creation and migrations of a first start.
  const url = process.env.TEST_DATABASE_URL;
  const tpl = inject('pgTemplate');
  if (url && tpl) {
    const { adminUrl, base, urlFor } = postgresTarget(url);
    const name = `${base}_shutdown_${randomBytes(4).toString('hex')}`;
    await withAdminClient(adminUrl, (c) => c.query(`CREATE DATABASE ${ident(name)} TEMPLATE ${ident(tpl)}`));
    databaseUrl = urlFor(name);
    dropDatabase = () =>
      withAdminClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`)).then(
        () => undefined,
      );
    return;
  }
  const template = inject('pgliteTemplateFile');
  if (template) await restorePglite(template, join(dataDir, 'pglite'));
}, TEST_TIMEOUT_MS);
afterAll(async () => {
  await dropDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

describe('graceful shutdown', () => {
  it(
    'answers every one of 50 requests in flight when SIGTERM arrives, then exits 0',
    async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: {
          ...process.env,
          PORT: String(port),
          DATA_DIR: dataDir,
          DEMO_WORKFLOWS: 'false',
          LOG_LEVEL: 'warn',
          DATABASE_URL: databaseUrl,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      // Read stderr so a chatty server cannot block on a full pipe, and keep it to explain a failure.
      let stderr = '';
      server.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
      await waitForHealth(url, Date.now() + STARTUP_DEADLINE_MS).catch((err: unknown) => {
        server.kill('SIGKILL');
        throw new Error(`${String(err)}\n${stderr}`);
      });

      // 50 connections the server has already accepted (a first request answered on each), so that the
      // requests below are on the server's side, not in the kernel's accept queue, when the signal comes.
      const agent = new Agent({ keepAlive: true, maxSockets: 50 });
      await Promise.all(
        Array.from(
          { length: 50 },
          () =>
            new Promise<void>((resolve, reject) => {
              request(`${url}/healthz`, { agent }, (res) => res.resume().on('end', resolve))
                .on('error', reject)
                .end();
            }),
        ),
      );
      expect(Object.values(agent.freeSockets).flat()).toHaveLength(50);

      // Sign-up hashes a password with argon2 (tens of ms each), so most of the 50 are still being worked on at
      // the signal; each is in flight once its bytes are all written.
      const sent: Array<Promise<void>> = [];
      const inFlight = Array.from(
        { length: 50 },
        (_, i) =>
          new Promise<{ status: number; at: number; connection?: string }>((resolve) => {
            const body = JSON.stringify({
              email: `shutdown-${i}@test.example`,
              password: 'shutdown-password-1',
              fullName: 'S',
            });
            const req = request(
              `${url}/api/auth/signup`,
              { method: 'POST', agent, headers: { 'content-type': 'application/json', origin: url } },
              (res) => {
                res.resume();
                res.on('end', () =>
                  resolve({
                    status: res.statusCode ?? 0,
                    at: Date.now(),
                    connection: res.headers.connection,
                  }),
                );
              },
            );
            req.on('error', () => resolve({ status: 0, at: Date.now() }));
            sent.push(new Promise((written) => req.on('finish', written)));
            req.end(body);
          }),
      );
      await Promise.all(sent);
      const killedAt = Date.now();
      server.kill('SIGTERM');
      const answers = await Promise.all(inFlight);
      expect(answers.filter((a) => a.status !== 201).map((a) => ({ ...a, at: a.at - killedAt }))).toEqual([]);
      // Answers given while draining close their connection, so no idle keep-alive socket holds the exit up.
      expect(answers.some((a) => a.connection === 'close')).toBe(true);
      // The test means something only if requests were still being worked on when the signal came.
      expect(answers.filter((a) => a.at > killedAt).length).toBeGreaterThan(5);
      expect(await exited, stderr).toBe(0);
      agent.destroy();
    },
    TEST_TIMEOUT_MS,
  );
});
