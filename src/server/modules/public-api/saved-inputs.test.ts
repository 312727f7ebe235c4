import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TApiRun } from '#shared/contract/public-api.js';
import type { TSavedInput, TSavedInputList } from '#shared/contract/saved-inputs.js';
import { savedInputs, userWorkflows, workflowExecutions } from '#server/db/schema.js';
import { withConfig } from '#server/test/test-data.js';
import {
  addChatWorkflow,
  addWorkflow,
  apiRequest,
  balanceOf,
  ledgerRowsOfRun,
  newApiKey,
  runRow,
  signUpUser,
  useRunsWorld,
  type RunsWorld,
} from '../executions/testing/fixtures.js';

/*
 * Saved answers through the cookie routes, the public API and the run service: kept checked, listed,
 * renamed, run without the form (charged once, origin kept), marked for review when the workflow changes,
 * and nobody else's.
 */

const w: RunsWorld = useRunsWorld();

const QUESTIONS = [
  { id: 'name', question: { es: '¿Nombre?', en: 'Name?' }, type: 'text' as const, options: [] },
  {
    id: 'age',
    question: { es: '¿Edad?', en: 'Age?' },
    type: 'number' as const,
    options: [],
    min: 1,
    max: 120,
  },
  {
    id: 'tone',
    question: { es: '¿Tono?', en: 'Tone?' },
    type: 'select' as const,
    options: ['formal', 'casual'],
    optionLabels: { formal: { es: 'Formal', en: 'Formal' }, casual: { es: 'Cercano', en: 'Casual' } },
  },
];
const GOOD = { name: 'Ana', age: 30, tone: 'Cercano' };

async function savedRows(userId: string) {
  return w.t.database.db.select().from(savedInputs).where(eq(savedInputs.userId, userId));
}

describe('saved answers (cookie routes)', () => {
  it('saves checked answers, lists them, runs them without the form (charged once, origin web) and deletes them', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS, creditsPerExecution: 2 });
    const user = await signUpUser(w.t);
    const saved = await user.client.post('/api/saved-inputs', {
      workflowId: wf.id,
      name: '  Weekly report  ',
      answers: GOOD,
      lang: 'es',
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const created = saved.json<TSavedInput>();
    // Kept by option, not by the label it was given as; the name trimmed.
    expect(created).toMatchObject({
      name: 'Weekly report',
      answers: { name: 'Ana', age: 30, tone: 'casual' },
      lang: 'es',
      needsReview: false,
      reviewProblems: [],
      lastRun: null,
      workflowName: wf.name,
    });
    expect(await balanceOf(w, user.id)).toBe(5);

    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: 'Hola, Ana' } }));
    const started = await user.client.post(`/api/saved-inputs/${created.id}/run`);
    expect(started.statusCode, started.body).toBe(201);
    const { executionId } = started.json<{ executionId: string }>();
    const sent = await w.service.callFor(executionId);
    // Sent in the saved language, as the form would have sent them.
    expect(sent.body.responses).toEqual([
      { question: '¿Nombre?', answer: 'Ana' },
      { question: '¿Edad?', answer: '30' },
      { question: '¿Tono?', answer: 'Cercano' },
    ]);
    await expect.poll(async () => (await runRow(w, executionId)).status).toBe('completed');
    const run = await runRow(w, executionId);
    expect(run).toMatchObject({ origin: 'web', creditsUsed: 2, language: 'es' });
    expect(await balanceOf(w, user.id)).toBe(3);
    expect(await ledgerRowsOfRun(w, executionId, 'usage')).toHaveLength(1);

    const list = (await user.client.get('/api/saved-inputs')).json<TSavedInputList>();
    expect(list.limit).toBe(50);
    expect(list.savedInputs).toHaveLength(1);
    expect(list.savedInputs[0]!.lastRun).toMatchObject({
      id: executionId,
      status: 'completed',
      origin: 'web',
    });

    const renamed = await user.client.patch(`/api/saved-inputs/${created.id}`, { name: 'Monday report' });
    expect(renamed.json()).toMatchObject({ name: 'Monday report', answers: created.answers });

    expect((await user.client.delete(`/api/saved-inputs/${created.id}`)).statusCode).toBe(200);
    expect(await savedRows(user.id)).toHaveLength(0);
    // The run stays in the history.
    expect((await runRow(w, executionId)).id).toBe(executionId);
  });

  it('saves the answers a run sent (the result screen), matched back to the questions', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS });
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client);
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: 'ok' } }));
    const res = await apiRequest(w, key, 'POST', '/api/v1/runs', {
      workflowId: wf.id,
      answers: { name: 'Luis', age: 41, tone: 'formal' },
      wait: 10,
      lang: 'en',
    });
    const run = res.json<TApiRun>();
    const saved = await user.client.post('/api/saved-inputs/from-run', { runId: run.id, name: 'Luis' });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json()).toMatchObject({ answers: { name: 'Luis', age: 41, tone: 'formal' }, lang: 'en' });

    // Someone else's run is not found, and nothing is kept for them.
    const other = await signUpUser(w.t);
    const refused = await other.client.post('/api/saved-inputs/from-run', { runId: run.id, name: 'Mine' });
    expect(refused.statusCode).toBe(404);
    expect(await savedRows(other.id)).toHaveLength(0);
  });

  it('refuses bad input with a clear error in the reader’s language and stores nothing', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS });
    const chat = await addChatWorkflow(w);
    const user = await signUpUser(w.t);
    const es = { 'accept-language': 'es' };
    const post = (body: unknown, headers?: Record<string, string>) =>
      user.client.post('/api/saved-inputs', body, headers);

    const unknownQuestion = await post(
      { workflowId: wf.id, name: 'x', answers: { ...GOOD, colour: 'red' } },
      es,
    );
    expect(unknownQuestion.statusCode).toBe(400);
    expect(unknownQuestion.json<{ error: string }>().error).toContain('Este workflow no tiene esa pregunta');

    const missing = await post({ workflowId: wf.id, name: 'x', answers: { name: 'Ana' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ error: string }>().error).toContain('This question needs an answer');

    const chatSaved = await post({ workflowId: chat.id, name: 'x', answers: {} }, es);
    expect(chatSaved.statusCode).toBe(400);
    expect(chatSaved.json<{ error: string }>().error).toBe(
      'Un workflow de chat no admite respuestas guardadas: cada ejecución es una conversación',
    );

    const emptyName = await post({ workflowId: wf.id, name: '   ', answers: GOOD });
    expect(emptyName.statusCode).toBe(400);
    const longName = await post({ workflowId: wf.id, name: 'n'.repeat(101), answers: GOOD });
    expect(longName.statusCode).toBe(400);

    const unknownWorkflow = await post(
      { workflowId: '00000000-0000-4000-8000-000000000000', name: 'x', answers: GOOD },
      es,
    );
    expect(unknownWorkflow.statusCode).toBe(404);
    expect(unknownWorkflow.json<{ error: string }>().error).toBe('Workflow no encontrado');

    expect(await savedRows(user.id)).toHaveLength(0);

    expect((await post({ workflowId: wf.id, name: 'Report', answers: GOOD })).statusCode).toBe(201);
    const twice = await post({ workflowId: wf.id, name: 'REPORT', answers: GOOD }, es);
    expect(twice.statusCode).toBe(409);
    expect(twice.json<{ error: string }>().error).toContain(
      'Ya tienes respuestas guardadas llamadas "REPORT"',
    );
    expect(await savedRows(user.id)).toHaveLength(1);
  });

  it('keeps to saved_inputs_per_account, counting concurrent saves', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS });
    const user = await signUpUser(w.t);
    await withConfig(w.t, 'saved_inputs_per_account', 3, async () => {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          user.client.post('/api/saved-inputs', { workflowId: wf.id, name: `n${i}`, answers: GOOD }),
        ),
      );
      expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
      const refused = results.find((r) => r.statusCode === 409)!;
      expect(refused.json<{ error: string }>().error).toContain('at most 3 saved answers');
      expect(await savedRows(user.id)).toHaveLength(3);
    });
  });

  it('marks answers for review when the questions change, never sends them, and clears it once fixed', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS });
    const user = await signUpUser(w.t);
    await user.client.patch('/api/account/profile', { language: 'es' });
    const created = (
      await user.client.post('/api/saved-inputs', { workflowId: wf.id, name: 'Review me', answers: GOOD })
    ).json<TSavedInput>();
    // A new required question, and the chosen option gone.
    await w.t.database.db
      .update(userWorkflows)
      .set({
        surveyQuestions: [
          QUESTIONS[0]!,
          QUESTIONS[1]!,
          { ...QUESTIONS[2]!, options: ['formal'], optionLabels: { formal: { es: 'Formal', en: 'Formal' } } },
          { id: 'city', question: { es: '¿Ciudad?', en: 'City?' }, type: 'text', options: [] },
        ],
      })
      .where(eq(userWorkflows.id, wf.id));

    const listed = (await user.client.get('/api/saved-inputs')).json<TSavedInputList>().savedInputs[0]!;
    expect(listed.needsReview).toBe(true);
    expect(listed.reviewProblems.map((p) => p.field).sort()).toEqual(['answers.city', 'answers.tone']);

    const before = await balanceOf(w, user.id);
    const refused = await user.client.post(`/api/saved-inputs/${created.id}/run`, undefined, {
      'accept-language': 'es',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: string }>().error).toBe(
      'Las preguntas del workflow han cambiado y estas respuestas guardadas ya no encajan: "¿Tono?" ' +
        '(answers.tone): Elige una de las opciones: Formal; "¿Ciudad?" (answers.city): Esta pregunta necesita ' +
        'una respuesta. Edítalas y vuelve a guardarlas antes de ejecutarlas.',
    );
    expect(await balanceOf(w, user.id)).toBe(before);
    const runs = await w.t.database.db
      .select()
      .from(workflowExecutions)
      .where(eq(workflowExecutions.userId, user.id));
    expect(runs).toHaveLength(0);

    const fixed = await user.client.patch(`/api/saved-inputs/${created.id}`, {
      answers: { ...GOOD, tone: 'formal', city: 'Madrid' },
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json()).toMatchObject({ needsReview: false, reviewProblems: [] });
    w.service.handle(() => ({ status: 202, body: { accepted: true } }));
    expect((await user.client.post(`/api/saved-inputs/${created.id}/run`)).statusCode).toBe(201);
  });

  it('answers 404 for someone else’s saved answers on every route, and changes nothing', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS });
    const owner = await signUpUser(w.t);
    const created = (
      await owner.client.post('/api/saved-inputs', { workflowId: wf.id, name: 'Mine', answers: GOOD })
    ).json<TSavedInput>();
    const other = await signUpUser(w.t);
    const url = `/api/saved-inputs/${created.id}`;
    expect((await other.client.get(url)).statusCode).toBe(404);
    expect((await other.client.patch(url, { name: 'Taken' })).statusCode).toBe(404);
    expect((await other.client.post(`${url}/run`)).statusCode).toBe(404);
    expect((await other.client.delete(url)).statusCode).toBe(404);
    const key = await newApiKey(other.client);
    expect((await apiRequest(w, key, 'GET', `/api/v1${url.slice(4)}`)).statusCode).toBe(404);
    expect((await apiRequest(w, key, 'POST', '/api/v1/runs', { savedInputId: created.id })).statusCode).toBe(
      404,
    );
    expect((await other.client.get('/api/saved-inputs')).json<TSavedInputList>().savedInputs).toEqual([]);
    expect(await savedRows(owner.id)).toMatchObject([{ name: 'Mine' }]);
    expect(await balanceOf(w, other.id)).toBe(5);
  });
});

describe('saved answers (public API)', () => {
  it('creates, reads, updates and deletes them with a key, and runs them with POST /api/v1/runs { savedInputId }', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS, creditsPerExecution: 1 });
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client);
    const created = await apiRequest(w, key, 'POST', '/api/v1/saved-inputs', {
      workflowId: wf.id,
      name: 'From the API',
      answers: { name: 'Eva', age: '22', tone: 'formal' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const saved = created.json<TSavedInput>();
    expect(saved.answers).toEqual({ name: 'Eva', age: 22, tone: 'formal' });

    const list = (await apiRequest(w, key, 'GET', '/api/v1/saved-inputs')).json<TSavedInputList>();
    expect(list.savedInputs.map((s) => s.id)).toEqual([saved.id]);

    const patched = await w.t.app.inject({
      method: 'PATCH',
      url: `/api/v1/saved-inputs/${saved.id}`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Renamed' }),
    });
    expect(patched.json()).toMatchObject({ name: 'Renamed' });

    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: 'done' } }));
    const run = await apiRequest(w, key, 'POST', '/api/v1/runs', { savedInputId: saved.id, wait: 10 });
    expect(run.statusCode, run.body).toBe(201);
    const started = run.json<TApiRun>();
    expect(started).toMatchObject({ status: 'completed', workflowId: wf.id, creditsUsed: 1 });
    expect((await runRow(w, started.id)).origin).toBe('api');
    expect((await apiRequest(w, key, 'GET', `/api/v1/saved-inputs/${saved.id}`)).json()).toMatchObject({
      lastRun: { id: started.id, status: 'completed', origin: 'api' },
    });

    // Both ways at once, or neither, is refused in the reader's language and charges nothing.
    const both = await apiRequest(
      w,
      key,
      'POST',
      '/api/v1/runs',
      { savedInputId: saved.id, workflowId: wf.id },
      { 'accept-language': 'es' },
    );
    expect(both.statusCode).toBe(400);
    expect(both.json<{ error: string }>().error).toBe(
      'Envía workflowId (con sus respuestas) o savedInputId, no ambos',
    );
    expect((await apiRequest(w, key, 'POST', '/api/v1/runs', {})).statusCode).toBe(400);
    expect(await balanceOf(w, user.id)).toBe(4);

    const deleted = await w.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/saved-inputs/${saved.id}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await savedRows(user.id)).toHaveLength(0);
  });
});
