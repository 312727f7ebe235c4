import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = mkdtempSync(join(tmpdir(), 'flujo-shutdown-test-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

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
  it('answers every one of 50 requests in flight when SIGTERM arrives, then exits 0', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        DEMO_WORKFLOWS: 'false',
        LOG_LEVEL: 'warn',
        DATABASE_URL: '',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    await waitForHealth(url, Date.now() + 60_000);

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
        new Promise<{ status: number; at: number }>((resolve) => {
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
              res.on('end', () => resolve({ status: res.statusCode ?? 0, at: Date.now() }));
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
    // The test means something only if requests were still being worked on when the signal came.
    expect(answers.filter((a) => a.at > killedAt).length).toBeGreaterThan(5);
    expect(await exited).toBe(0);
    agent.destroy();
  }, 90_000);
});
