import { beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches } from '../test/ledger-check.js';
import { readEvents } from '../modules/executions/testing/event-stream.js';
import { freePort } from '../modules/executions/testing/workflow-service.js';
import {
  onPostgres,
  PROCESS_STARTUP_MS,
  useSurveyProcesses,
  type ServerProcess,
} from '../test/server-process.js';

/**
 * Live run events between two server processes on one PostgreSQL: a person follows a run on one instance while
 * the workflow's progress and result reach the other, as behind a load balancer. Nothing but the database's
 * notifications connects the two. PGlite admits one process per database, so this runs in the PostgreSQL
 * suite; the in-process variant (multi-instance.test.ts) runs on both databases.
 */

describe.runIf(onPostgres)('run events across two server processes', () => {
  // The workflow service accepts each call (202) and posts nothing: the test posts the results itself.
  const processes = useSurveyProcesses('events');
  const { database, service } = processes;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    const ports = [await freePort(), await freePort()];
    servers = await Promise.all(ports.map((port) => processes.start(port)));
  }, PROCESS_STARTUP_MS);

  it('a stream and a waiting complete call on one instance follow a result posted to the other', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const post = (url: string, body: unknown, cookie?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: new URL(url).origin,
          ...(cookie ? { cookie } : {}),
        },
        body: JSON.stringify(body),
      });
    const signup = await post(`${a.url}/api/auth/signup`, {
      email: 'follower@two.example',
      password: 'follower-password-1',
      fullName: 'Follower',
    });
    expect(signup.status).toBe(201);
    const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
    const started = await post(`${a.url}/api/executions/start`, { workflowId: processes.workflowId }, cookie);
    expect(started.status).toBe(201);
    const { executionId: runId } = (await started.json()) as { executionId: string };

    // The complete call waits on instance A for the result, which will reach instance B.
    const call = service.callFor(runId);
    const completion = post(
      `${a.url}/api/executions/${runId}/complete`,
      { responses: [{ questionId: 'q1', answer: 'two' }] },
      cookie,
    );
    const token = { execution_id: runId, secret_token: (await call).body.secret_token };
    const stream = await readEvents(`${a.url}/api/executions/${runId}/events`, { cookie });
    expect(stream.status).toBe(200);
    expect(JSON.parse((await stream.next())!.data)).toMatchObject({ status: 'running' });

    for (const message of ['Reading', 'Writing']) {
      const res = await post(`${b.url}/api/workflow-result`, {
        ...token,
        status: 'running',
        output_data: { message },
      });
      expect(res.status).toBe(200);
      expect(JSON.parse((await stream.next())!.data)).toMatchObject({ progressMessage: message });
    }
    const res = await post(`${b.url}/api/workflow-result`, {
      ...token,
      status: 'completed',
      output_data: { message: 'done' },
    });
    expect(res.status).toBe(200);
    const done = await stream.next();
    expect(JSON.parse(done!.data)).toMatchObject({ status: 'completed', outputData: { message: 'done' } });
    expect(await stream.next()).toBeNull();
    const completed = await completion;
    expect(completed.status).toBe(200);
    expect(await completed.json()).toMatchObject({ status: 'completed' });

    // The reader reconnects through the other instance: it has seen the end, so nothing is sent.
    const resumed = await readEvents(`${b.url}/api/executions/${runId}/events`, {
      cookie,
      'last-event-id': done!.id!,
    });
    expect(resumed.status).toBe(204);

    expect(await database.withDb((db) => ledgerMismatches(db))).toEqual([]);
  }, 60_000);
});
