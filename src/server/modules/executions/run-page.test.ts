import { useRunsWorld } from './testing/fixtures.js';
import { describe, expect, it } from 'vitest';
import type { TExecutionDetail, TExecutionListItem } from '#shared/contract/executions.js';
import { addWorkflow, ANSWERS, signUpUser, startRun } from './testing/fixtures.js';

const w = useRunsWorld();

describe("a run's page (GET /api/executions/:id)", () => {
  it('gives the owner what was sent, when it reached the workflow and nothing refunded for a completed run', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 2 });
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);

    const pending = (await user.client.get(`/api/executions/${runId}`)).json() as TExecutionDetail;
    expect(pending).toMatchObject({
      status: 'pending',
      answers: null,
      dispatchedAt: null,
      creditsRefunded: 0,
    });

    w.service.handle(() => ({
      status: 200,
      body: { status: 'completed', output_data: { message: '**Hola**' } },
    }));
    expect((await user.client.post(`/api/executions/${runId}/complete`, ANSWERS)).statusCode).toBe(200);

    const done = (await user.client.get(`/api/executions/${runId}`)).json() as TExecutionDetail;
    expect(done).toMatchObject({
      id: runId,
      status: 'completed',
      interactionType: 'survey',
      creditsUsed: 2,
      creditsRefunded: 0,
      answers: ANSWERS.responses,
      outputData: { message: '**Hola**' },
    });
    expect(Date.parse(done.dispatchedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(done.createdAt));
    expect(done.completedAt).not.toBeNull();
  });

  it('shows a failed run as refunded in full', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 3 });
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    w.service.handle(() => ({ status: 403, body: { error: 'bad token' } }));
    await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);
    const failed = (await user.client.get(`/api/executions/${runId}`)).json() as TExecutionDetail;
    expect(failed).toMatchObject({ status: 'failed', creditsUsed: 3, creditsRefunded: 3 });
    const [row] = (await user.client.get('/api/executions')).json() as TExecutionListItem[];
    expect(row).toMatchObject({ id: runId, creditsRefunded: 3 });
  });

  it("answers 404 for someone else's run and for the admin too", async () => {
    const wf = await addWorkflow(w);
    const owner = await signUpUser(w.t);
    const other = await signUpUser(w.t);
    const runId = await startRun(owner.client, wf.id);
    expect((await other.client.get(`/api/executions/${runId}`)).statusCode).toBe(404);
    expect((await w.admin.get(`/api/executions/${runId}`)).statusCode).toBe(404);
  });
});

describe('history rows (GET /api/executions)', () => {
  it('carry workflow, status, outputType, outputFilename, credits_used and created_at', async () => {
    const wf = await addWorkflow(w, { creditsPerExecution: 1 });
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: { message: 'ok' } } }));
    await user.client.post(`/api/executions/${runId}/complete`, ANSWERS);

    const [row] = (await user.client.get('/api/executions')).json() as TExecutionListItem[];
    expect(row).toMatchObject({
      id: runId,
      workflow: { id: wf.id, name: { es: 'Resumen', en: 'Summary' } },
      status: 'completed',
      outputType: 'text',
      outputFilename: null,
      credits_used: 1,
      creditsUsed: 1,
      creditsRefunded: 0,
    });
    expect(row?.created_at).toBe(row?.createdAt);
    expect(Number.isNaN(Date.parse(row?.created_at ?? ''))).toBe(false);
  });
});
