import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { freePort } from '../modules/executions/testing/workflow-service.js';
import { PROCESS_ADMIN, useSurveyProcesses } from '../test/server-process.js';
import { fetchApi } from '../test/signup-limit.js';

const REQUESTS = 50;
const TEST_TIMEOUT_MS = 240_000;

describe('graceful shutdown', () => {
  const world = useSurveyProcesses('shutdown');

  it(
    `answers every one of ${REQUESTS} requests in flight when SIGTERM arrives, then exits 0`,
    async () => {
      const server = await world.start(await freePort());
      const { url } = server;
      const call = fetchApi(url);
      const signin = await call('POST', '/api/auth/signin', PROCESS_ADMIN, undefined);
      const cookie = signin.cookie;
      expect(signin.status).toBe(200);
      const me = (await call('GET', '/api/auth/me', undefined, cookie)).body as { id: string };
      const granted = await call(
        'POST',
        '/api/admin/users/adjust-credits',
        { userId: me.id, amount: REQUESTS, reason: 'shutdown test' },
        cookie,
      );
      expect(granted.status).toBe(200);
      const created = await call('POST', '/api/account/api-keys', { name: 'shutdown' }, cookie);
      expect(created.status).toBe(201);
      const { key } = created.body as { key: string };

      // Each run asks the server to wait for its end, and the workflow service accepts the answers and never
      // posts a result: every request is held by the server, whatever the machine's speed, until the shutdown
      // ends its wait. Each on its own connection, as separate integrations would send them.
      const agent = new Agent({ keepAlive: true, maxSockets: REQUESTS });
      let killedAt = 0;
      const inFlight = Array.from(
        { length: REQUESTS },
        () =>
          new Promise<{ status: number; runStatus?: string; connection?: string; afterKill: boolean }>(
            (resolve) => {
              const req = request(
                `${url}/api/v1/runs`,
                {
                  method: 'POST',
                  agent,
                  headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
                },
                (res) => {
                  const chunks: Buffer[] = [];
                  res.on('data', (c: Buffer) => chunks.push(c));
                  res.on('end', () => {
                    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
                      status?: string;
                    };
                    resolve({
                      status: res.statusCode ?? 0,
                      runStatus: body.status,
                      connection: res.headers.connection,
                      afterKill: killedAt > 0,
                    });
                  });
                },
              );
              req.on('error', () => resolve({ status: 0, afterKill: killedAt > 0 }));
              req.end(JSON.stringify({ workflowId: world.workflowId, answers: { q1: 'Ana' }, wait: 60 }));
            },
          ),
      );
      // Every run's answers reached the workflow: all requests are now waiting inside the server.
      await expect.poll(() => world.service.calls.length, { timeout: 120_000, interval: 50 }).toBe(REQUESTS);
      killedAt = Date.now();
      server.child.kill('SIGTERM');
      const answers = await Promise.all(inFlight);

      // Each was answered after the signal, with its run as it stands (still running: no result came), and
      // closing its connection, so no idle keep-alive socket holds the exit up.
      expect(answers.filter((a) => !a.afterKill)).toEqual([]);
      expect(answers.map((a) => `${a.status} ${a.runStatus} ${a.connection}`)).toEqual(
        Array.from({ length: REQUESTS }, () => '201 running close'),
      );
      expect(await server.exited, server.stderr()).toBe(0);
      agent.destroy();
    },
    TEST_TIMEOUT_MS,
  );
});
