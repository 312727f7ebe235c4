import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildApp } from '#server/app.js';
import { userWorkflows, workflowRunTally } from '#server/db/schema.js';
import { TestClient } from '#server/test/client.js';
import { ledgerMismatches } from '#server/test/ledger-check.js';
import type { App } from '#server/types.js';
import { setWorkflowActive } from '../workflows/manage.js';
import { expireOverdueRuns } from './sweeper.js';
import { tallyRuns } from './tally.js';
import {
  addWorkflow,
  completeAsync,
  ledgerRowsOfRun,
  runRow,
  signUpUser,
  startRun,
  startRunsWorld,
  type RunsWorld,
} from './testing/fixtures.js';

/**
 * Two server instances on one database (the second shares the first's database and clock, as two processes
 * share one PostgreSQL). Nothing that matters may live only in one instance's memory.
 */
let w: RunsWorld;
let other: App;
beforeAll(async () => {
  w = await startRunsWorld();
  other = await buildApp(
    { config: w.t.config, database: w.t.database, db: w.t.database.db, now: w.t.clock.now },
    { logger: false },
  );
  await other.ready();
});
afterAll(async () => {
  expect(await ledgerMismatches(w.t.database.db)).toEqual([]);
  await other?.close();
  await w?.close();
});

describe('two instances', () => {
  it('a run completed on one instance sees the result that reached the other', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const { call, completion } = await completeAsync(w, user.client, runId);
    const res = await other.inject({
      method: 'POST',
      url: '/api/workflow-result',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        execution_id: runId,
        secret_token: call.body.secret_token,
        status: 'completed',
        output_data: { message: 'from the other instance' },
      }),
    });
    expect(res.statusCode).toBe(200);
    expect((await completion).json()).toMatchObject({
      status: 'completed',
      outputData: { message: 'from the other instance' },
    });
  });

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

  it('sweepers running on both instances at once expire and refund each run once', async () => {
    const wf = await addWorkflow(w);
    const user = await signUpUser(w.t);
    const runs = await Promise.all(Array.from({ length: 5 }, () => startRun(user.client, wf.id)));
    w.t.clock.advance(16 * 60_000);
    const deps = { config: w.t.config, database: w.t.database, db: w.t.database.db, now: w.t.clock.now };
    const [a, b] = await Promise.all([expireOverdueRuns(deps), expireOverdueRuns(deps)]);
    w.t.clock.reset();
    expect(a + b).toBe(5);
    for (const runId of runs) {
      expect((await runRow(w, runId)).status).toBe('expired');
      expect(await ledgerRowsOfRun(w, runId, 'refund')).toHaveLength(1);
    }
  });

  it('run counters count each start once, however many instances tally at the same time', async () => {
    const wf = await addWorkflow(w);
    const users = await Promise.all([signUpUser(w.t), signUpUser(w.t)]);
    await Promise.all(users.flatMap((u) => [1, 2, 3, 4].map(() => startRun(u.client, wf.id))));
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
