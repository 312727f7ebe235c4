import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '#server/app.js';
import { userWorkflows, workflowRunTally } from '#server/db/schema.js';
import type { Database } from '#server/db/client.js';
import { Metrics } from '#server/lib/metrics.js';
import { TestClient } from '#server/test/client.js';
import { anotherHandle } from '#server/test/harness.js';
import type { App } from '#server/types.js';
import { setWorkflowActive } from '../workflows/manage.js';
import { expireOverdueRuns } from './sweeper.js';
import { tallyRuns } from './tally.js';
import { readEvents } from './testing/event-stream.js';
import {
  addWorkflow,
  ANSWERS,
  completeAsync,
  ledgerRowsOfRun,
  openRun,
  runRow,
  signUpUser,
  startRun,
  useRunsWorld,
} from './testing/fixtures.js';

/**
 * Two server instances on one database (the second has a handle of its own on the first's database, with its
 * own listening connection, and shares its clock, as two processes share one PostgreSQL). Nothing that
 * matters may live only in one instance's memory.
 */
const w = useRunsWorld();
let other: App;
let otherDatabase: Database;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

async function instanceOn(database: Database): Promise<App> {
  // Its own database handle and metrics, as another process would have.
  const app = await buildApp(
    { ...w.t.deps, database, db: database.db, metrics: new Metrics() },
    { logger: false },
  );
  await app.ready();
  return app;
}

beforeAll(async () => {
  otherDatabase = await anotherHandle(w.t.database);
  other = await instanceOn(otherDatabase);
});
// Registered after useRunsWorld's, so it runs before that one's books check and close (vitest stacks them).
afterAll(async () => {
  await other?.close();
  await otherDatabase?.close();
});

/** A workflow's result posted to the other instance, as a service behind a load balancer may. */
const postToOther = (body: object) =>
  other.inject({
    method: 'POST',
    url: '/api/workflow-result',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

describe('two instances', () => {
  it('a run completed on one instance sees the result that reached the other', async () => {
    const run = await openRun(w);
    const res = await postToOther({
      execution_id: run.runId,
      secret_token: run.token,
      status: 'completed',
      output_data: { message: 'from the other instance' },
    });
    expect(res.statusCode).toBe(200);
    expect((await run.completion).json()).toMatchObject({
      status: 'completed',
      outputData: { message: 'from the other instance' },
    });
  });

  it('an event stream on one instance gets every change made through the other, told by the database', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const { call, completion } = await completeAsync(w, user.client, runId);
    const stream = await readEvents(`${w.baseUrl}/api/executions/${runId}/events`, {
      cookie: user.client.cookie!,
    });
    expect(JSON.parse((await stream.next())!.data)).toMatchObject({ status: 'running' });
    const token = { execution_id: runId, secret_token: call.body.secret_token };
    for (const step of ['Leyendo', 'Comparando']) {
      expect(
        (await postToOther({ ...token, status: 'running', output_data: { message: step } })).statusCode,
      ).toBe(200);
      expect(JSON.parse((await stream.next())!.data)).toMatchObject({ progressMessage: step });
    }
    expect((await postToOther({ ...token, status: 'completed', output_data: { ok: 1 } })).statusCode).toBe(
      200,
    );
    const done = await stream.next();
    expect(JSON.parse(done!.data)).toMatchObject({ status: 'completed', outputData: { ok: 1 } });
    expect(await stream.next()).toBeNull();
    expect((await completion).json()).toMatchObject({ status: 'completed' });
    // The reader resumes on the other instance: it has seen the end, so there is nothing to send.
    const resumed = await other.inject({
      method: 'GET',
      url: `/api/executions/${runId}/events`,
      headers: { cookie: user.client.cookie!, 'last-event-id': done!.id! },
    });
    expect(resumed.statusCode).toBe(204);
  });

  // Only PostgreSQL has a listening connection to lose; the embedded database lives in the process.
  it.runIf(onPostgres)(
    'a stream whose instance lost its listening connection catches up once it is back',
    async () => {
      // A third instance whose listener waits long enough before reconnecting that the change below is
      // certainly made while nobody there listens.
      const database = await anotherHandle(w.t.database, { minBackoffMs: 1_500 });
      const third = await instanceOn(database);
      // Its listener connects when the first stream asks for it; the connection is cut only once it listens.
      const listening = new Promise<void>((resolve) => database.notifications.onListening(() => resolve()));
      try {
        const origin = await third.listen({ port: 0, host: '127.0.0.1' });
        const wf = await addWorkflow(w);
        const user = await signUpUser(w.t);
        const runId = await startRun(user.client, wf.id);
        const { call, completion } = await completeAsync(w, user.client, runId);
        const url = `${origin}/api/executions/${runId}/events`;
        const stream = await readEvents(url, { cookie: user.client.cookie! });
        const first = await stream.next();
        expect(JSON.parse(first!.data)).toMatchObject({ status: 'running' });
        await listening;
        const lost = new Promise<void>((resolve) => database.notifications.onLost(() => resolve()));
        const back = new Promise<void>((resolve) => database.notifications.onListening(() => resolve()));
        await w.t.database.db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity
             where application_name = 'flujo-listener' and datname = current_database()`,
        );
        await lost;
        // A revocation may go unheard while nobody listens, so the instance ends its watched streams (decision
        // 121); the reader reconnects, as EventSource does, and is checked afresh.
        expect(await stream.next()).toBeNull();
        const token = { execution_id: runId, secret_token: call.body.secret_token };
        expect(
          (await postToOther({ ...token, status: 'running', output_data: { message: 'Mientras' } }))
            .statusCode,
        ).toBe(200);
        await back;
        // Reconnected from the last event it saw, the reader catches up with the change made meanwhile.
        const again = await readEvents(url, { cookie: user.client.cookie!, 'last-event-id': first!.id! });
        expect(JSON.parse((await again.next())!.data)).toMatchObject({ progressMessage: 'Mientras' });
        await postToOther({ ...token, status: 'completed', output_data: { ok: 1 } });
        expect(JSON.parse((await again.next())!.data)).toMatchObject({ status: 'completed' });
        await completion;
      } finally {
        await third.close();
        await database.close();
      }
    },
  );

  it('a catalogue change made through one instance is served at once by the other', async () => {
    const wf = await addWorkflow(w, { name: { es: 'Compartido', en: 'Shared' } });
    const visitorA = new TestClient(w.t);
    const listA = await visitorA.get('/api/workflows/public');
    const etag = String(listA.headers.etag);
    expect(listA.json().map((x: { id: string }) => x.id)).toContain(wf.id);
    const listB = await other.inject({ method: 'GET', url: '/api/workflows/public' });
    expect(listB.headers.etag).toBe(etag);

    await setWorkflowActive(w.t.database.db, wf.id, false);
    const afterB = await other.inject({
      method: 'GET',
      url: '/api/workflows/public',
      headers: { 'if-none-match': etag },
    });
    const afterA = await visitorA.get('/api/workflows/public', { 'if-none-match': etag });
    for (const res of [afterA, afterB]) {
      expect(res.statusCode).toBe(200);
      expect(res.json().map((x: { id: string }) => x.id)).not.toContain(wf.id);
    }
  });

  it('sweepers running on both instances at once expire and refund each sent run once', async () => {
    const user = await signUpUser(w.t);
    // Sent runs (charged) whose service keeps failing, so they wait for a result that never comes, and
    // runs never sent (never charged).
    w.service.handle(() => ({ status: 500 }));
    const sent: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const runId = await startRun(user.client, (await addWorkflow(w)).id);
      expect((await user.client.post(`/api/executions/${runId}/complete`, ANSWERS)).statusCode).toBe(200);
      sent.push(runId);
    }
    const unsent = [
      await startRun(user.client, (await addWorkflow(w)).id),
      await startRun(user.client, (await addWorkflow(w)).id),
    ];
    w.t.clock.advance(16 * 60_000);
    const [a, b] = await Promise.all([expireOverdueRuns(w.t.deps), expireOverdueRuns(w.t.deps)]);
    w.t.clock.reset();
    expect(a + b).toBe(5);
    for (const runId of [...sent, ...unsent]) expect((await runRow(w, runId)).status).toBe('expired');
    for (const runId of sent) expect(await ledgerRowsOfRun(w, runId, 'refund')).toHaveLength(1);
    for (const runId of unsent) expect(await ledgerRowsOfRun(w, runId, 'refund')).toHaveLength(0);
  });

  it('run counters count each paid run once, however many instances tally at the same time', async () => {
    const wf = await addWorkflow(w);
    const users = await Promise.all([signUpUser(w.t), signUpUser(w.t)]);
    // A run is counted when it is paid for (its answers sent); each sent run lets the next open be a new one.
    w.service.handle(() => ({ status: 500 }));
    await Promise.all(
      users.map(async (u) => {
        for (let i = 0; i < 4; i += 1) {
          const runId = await startRun(u.client, wf.id);
          await u.client.post(`/api/executions/${runId}/complete`, ANSWERS);
        }
      }),
    );
    const db = w.t.database.db;
    await Promise.all([tallyRuns(db), tallyRuns(db), tallyRuns(db)]);
    await tallyRuns(db);
    const [row] = await db
      .select({ count: userWorkflows.executionCount })
      .from(userWorkflows)
      .where(eq(userWorkflows.id, wf.id));
    expect(row?.count).toBe(8);
    const pending = await db.select().from(workflowRunTally).where(eq(workflowRunTally.workflowId, wf.id));
    expect(pending).toEqual([]);
  });
});
