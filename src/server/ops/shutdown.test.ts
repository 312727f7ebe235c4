import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { freePort } from '../modules/executions/testing/workflow-service.js';
import {
  PROCESS_ADMIN,
  raiseProcessSignupLimit,
  startServerProcess,
  useProcessDatabase,
} from '../test/server-process.js';

// Starting the server under tsx on a busy 2-core machine can take a minute; the test itself a few seconds.
const STARTUP_DEADLINE_MS = 150_000;
const TEST_TIMEOUT_MS = 240_000;

const database = useProcessDatabase('shutdown', TEST_TIMEOUT_MS);

describe('graceful shutdown', () => {
  it(
    'answers every one of 50 requests in flight when SIGTERM arrives, then exits 0',
    async () => {
      const server = await startServerProcess({
        port: await freePort(),
        env: { ...database.env, ADMIN_EMAIL: PROCESS_ADMIN.email, ADMIN_PASSWORD: PROCESS_ADMIN.password },
        deadlineMs: STARTUP_DEADLINE_MS,
      });
      const { url } = server;
      // 50 sign-ups from one address: far past the product's default per-address allowance.
      await raiseProcessSignupLimit(server);

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
      server.child.kill('SIGTERM');
      const answers = await Promise.all(inFlight);
      expect(answers.filter((a) => a.status !== 201).map((a) => ({ ...a, at: a.at - killedAt }))).toEqual([]);
      // Answers given while draining close their connection, so no idle keep-alive socket holds the exit up.
      expect(answers.some((a) => a.connection === 'close')).toBe(true);
      // The test means something only if requests were still being worked on when the signal came.
      expect(answers.filter((a) => a.at > killedAt).length).toBeGreaterThan(5);
      expect(await server.exited, server.stderr()).toBe(0);
      agent.destroy();
    },
    TEST_TIMEOUT_MS,
  );
});
