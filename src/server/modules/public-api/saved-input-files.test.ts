import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { TSavedInput } from '#shared/contract/saved-inputs.js';
import type { TSurveyQuestion } from '#shared/contract/workflows.js';
import { runInputFiles, savedInputFiles, savedInputs } from '#server/db/schema.js';
import type { TestClient } from '#server/test/client.js';
import {
  addWorkflow,
  apiRequest,
  balanceOf,
  newApiKey,
  signUpUser,
  startRun,
  useRunsWorld,
  type RunsWorld,
} from '../executions/testing/fixtures.js';
import { CSV, PDF } from '../executions/testing/samples.js';

/*
 * File answers kept with saved answers (decision 159): uploaded with the same checks, storage and limits as a
 * run's, copied to each run started from them (web, API), kept apart from the runs' copies, and removed with
 * the saved answers.
 */

const w: RunsWorld = useRunsWorld();

const QUESTIONS: TSurveyQuestion[] = [
  { id: 'name', question: { es: '¿Nombre?', en: 'Name?' }, type: 'text', options: [] },
  {
    id: 'data',
    question: { es: 'Tus datos', en: 'Your data' },
    type: 'file',
    options: [],
    accept: ['csv'],
    maxSizeMb: 1,
  },
];

/** Keeps a file for one question over real HTTP, as the browser (cookie) or a script (key) does. */
async function putFile(
  by: { client: TestClient } | { key: string },
  path: string,
  filename: string,
  bytes: Buffer,
  lng: 'es' | 'en' = 'en',
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  const headers: Record<string, string> =
    'key' in by
      ? { authorization: `Bearer ${by.key}`, 'accept-language': lng }
      : { origin: w.baseUrl, cookie: by.client.cookie ?? '', 'accept-language': lng };
  const res = await fetch(`${w.baseUrl}${path}`, { method: 'PUT', headers, body: form });
  return { status: res.status, body: (await res.json()) as TSavedInput & { error?: string } };
}

/** The files the store holds (results, uploads and saved answers' files share it). */
async function storedFiles(): Promise<string[]> {
  try {
    return await readdir(join(w.dataDir, 'results'));
  } catch {
    return [];
  }
}

const keptFiles = (savedInputId: string) =>
  w.t.database.db.select().from(savedInputFiles).where(eq(savedInputFiles.savedInputId, savedInputId));

/** Lets the workflow service fetch each call's file answer through its link; answers the bytes it got. */
function fetchFilesOnCall() {
  const fetched = new Map<string, Buffer>();
  w.service.handle(async (call) => {
    const responses = call.body.responses as Array<{ question: string; answer: unknown }>;
    const answer = responses.find((r) => r.question === 'Tus datos' || r.question === 'Your data')?.answer as
      { url: string } | undefined;
    if (answer) {
      const res = await fetch(answer.url);
      fetched.set(call.body.execution_id as string, Buffer.from(await res.arrayBuffer()));
    }
    return { status: 202, body: { accepted: true } };
  });
  return fetched;
}

describe('file answers kept with saved answers', () => {
  it('keeps an uploaded file, sends a copy with each run now, and removes it with the saved answers', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS });
    const user = await signUpUser(w.t);
    const created = await user.client.post('/api/saved-inputs', {
      workflowId: wf.id,
      name: 'With data',
      answers: { name: 'Ana' },
      lang: 'es',
    });
    expect(created.statusCode, created.body).toBe(201);
    const saved = created.json<TSavedInput>();
    // Without its file they need review and are never sent.
    expect(saved.needsReview).toBe(true);
    expect(saved.reviewProblems.map((p) => p.field)).toEqual(['answers.data']);
    const early = await user.client.post(
      `/api/saved-inputs/${saved.id}/run`,
      {},
      { 'accept-language': 'es' },
    );
    expect(early.statusCode).toBe(409);
    expect(early.json<{ error: string }>().error).toContain('Sube un archivo para esta pregunta');

    const path = `/api/saved-inputs/${saved.id}/files/data`;
    const before = await storedFiles();
    // Refused as a run's upload is, in the reader's language, keeping nothing.
    const wrongKind = await putFile(user, path, 'report.pdf', PDF, 'es');
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error).toBe('Esta pregunta solo admite archivos csv');
    const tooBig = await putFile(user, path, 'big.csv', Buffer.alloc(1024 * 1024 + 1, 'a'), 'es');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toBe('El archivo supera los 1 MB, el máximo que admite esta pregunta');
    const notAFileQuestion = await putFile(user, `/api/saved-inputs/${saved.id}/files/name`, 'a.csv', CSV);
    expect(notAFileQuestion.status).toBe(400);
    const other = await signUpUser(w.t);
    const foreign = await putFile(other, path, 'a.csv', CSV);
    expect(foreign.status).toBe(404);
    expect(await storedFiles()).toEqual(before);
    expect(await keptFiles(saved.id)).toHaveLength(0);

    const kept = await putFile(user, path, 'cities.csv', CSV);
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ needsReview: false, reviewProblems: [] });
    expect(kept.body.files).toMatchObject([{ questionId: 'data', filename: 'cities.csv', size: CSV.length }]);
    expect(kept.body.answers).toEqual({ name: 'Ana', data: { fileId: kept.body.files[0]!.fileId } });

    // Replacing it removes the old bytes.
    const replaced = await putFile(user, path, 'cities.csv', Buffer.from('name,total\nEva,5\n'));
    expect(replaced.status).toBe(200);
    expect((await storedFiles()).length).toBe(before.length + 1);

    const fetched = fetchFilesOnCall();
    const balance = await balanceOf(w, user.id);
    const run = await user.client.post(`/api/saved-inputs/${saved.id}/run`, {});
    expect(run.statusCode, run.body).toBe(201);
    const runId = run.json<{ executionId: string }>().executionId;
    await w.service.callFor(runId);
    // The service fetches the file while it handles the call, after the call itself is seen.
    await expect.poll(() => fetched.get(runId)?.toString()).toBe('name,total\nEva,5\n');
    expect(await balanceOf(w, user.id)).toBe(balance - wf.creditsPerExecution);
    // The run has its own copy, under its own key.
    const [copy] = await w.t.database.db
      .select()
      .from(runInputFiles)
      .where(eq(runInputFiles.executionId, runId));
    const [original] = await keptFiles(saved.id);
    expect(copy).toMatchObject({ questionId: 'data', filename: 'cities.csv' });
    expect(copy!.storageKey).not.toBe(original!.storageKey);

    // Deleting the saved answers removes their file; the run's copy stays with the run.
    expect((await user.client.delete(`/api/saved-inputs/${saved.id}`)).statusCode).toBe(200);
    const left = await storedFiles();
    expect(left).not.toContain(original!.storageKey);
    expect(left).toContain(copy!.storageKey);
    expect(await keptFiles(saved.id)).toHaveLength(0);
  });

  it('keeps the files a run was sent when its answers are saved, as copies of their own', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS });
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const form = new FormData();
    form.append('questionId', 'data');
    form.append('file', new Blob([new Uint8Array(CSV)]), 'cities.csv');
    const up = await fetch(`${w.baseUrl}/api/executions/${runId}/files`, {
      method: 'POST',
      headers: { origin: w.baseUrl, cookie: user.client.cookie ?? '' },
      body: form,
    });
    const { fileId } = (await up.json()) as { fileId: string };
    // The workflow answers at once, so the complete call returns with the run ended.
    w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: 'ok' } }));
    const done = await user.client.post(`/api/executions/${runId}/complete`, {
      responses: [
        { question: '¿Nombre?', answer: 'Luis' },
        { question: 'Tus datos', answer: { fileId } },
      ],
    });
    expect(done.statusCode, done.body).toBe(200);
    const saved = await user.client.post('/api/saved-inputs/from-run', { runId, name: 'Again' });
    expect(saved.statusCode, saved.body).toBe(201);
    const body = saved.json<TSavedInput>();
    expect(body).toMatchObject({ needsReview: false, answers: { name: 'Luis' } });
    expect(body.files).toMatchObject([{ questionId: 'data', filename: 'cities.csv', size: CSV.length }]);
    const [kept] = await keptFiles(body.id);
    const [runFile] = await w.t.database.db.select().from(runInputFiles).where(eq(runInputFiles.id, fileId));
    expect(kept!.storageKey).not.toBe(runFile!.storageKey);
    expect(await storedFiles()).toContain(kept!.storageKey);
  });

  it('keeps and runs them through the public API with a key, and refuses someone else’s', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS, creditsPerExecution: 1 });
    const user = await signUpUser(w.t);
    const key = await newApiKey(user.client);
    const created = await apiRequest(w, key, 'POST', '/api/v1/saved-inputs', {
      workflowId: wf.id,
      name: 'API data',
      answers: { name: 'Eva' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const saved = created.json<TSavedInput>();
    const path = `/api/v1/saved-inputs/${saved.id}/files/data`;

    const stranger = await signUpUser(w.t);
    const strangerKey = await newApiKey(stranger.client);
    const before = await storedFiles();
    const foreign = await putFile({ key: strangerKey }, path, 'a.csv', CSV, 'es');
    expect(foreign.status).toBe(404);
    const noKey = await fetch(`${w.baseUrl}${path}`, { method: 'PUT', body: new FormData() });
    expect(noKey.status).toBe(401);
    expect(await storedFiles()).toEqual(before);

    const kept = await putFile({ key }, path, 'cities.csv', CSV);
    expect(kept.status).toBe(200);
    expect(kept.body.needsReview).toBe(false);

    const fetched = fetchFilesOnCall();
    const run = await apiRequest(w, key, 'POST', '/api/v1/runs', { savedInputId: saved.id });
    expect(run.statusCode, run.body).toBe(201);
    const runId = run.json<{ id: string }>().id;
    await w.service.callFor(runId);
    await expect.poll(() => fetched.get(runId)?.equals(CSV)).toBe(true);
    const [saveRow] = await w.t.database.db.select().from(savedInputs).where(eq(savedInputs.id, saved.id));
    expect(saveRow!.lastRunId).toBe(runId);
  });

  it('keeps the files the survey form uploaded to its own run when it saves without running', async () => {
    const wf = await addWorkflow(w, { surveyQuestions: QUESTIONS });
    const user = await signUpUser(w.t);
    const runId = await startRun(user.client, wf.id);
    const form = new FormData();
    form.append('questionId', 'data');
    form.append('file', new Blob([new Uint8Array(CSV)]), 'cities.csv');
    const up = await fetch(`${w.baseUrl}/api/executions/${runId}/files`, {
      method: 'POST',
      headers: { origin: w.baseUrl, cookie: user.client.cookie ?? '' },
      body: form,
    });
    const { fileId } = (await up.json()) as { fileId: string };
    // Someone else's run lends nothing, and nothing is kept for them.
    const other = await signUpUser(w.t);
    const before = await storedFiles();
    const foreign = await other.client.post('/api/saved-inputs', {
      workflowId: wf.id,
      name: 'Not mine',
      answers: { name: 'Eva', data: { fileId } },
      runId,
    });
    expect(foreign.statusCode).toBe(404);
    expect(await storedFiles()).toEqual(before);
    // A bad answer beside the file keeps nothing either.
    const bad = await user.client.post(
      '/api/saved-inputs',
      { workflowId: wf.id, name: 'Bad', answers: { name: 'Eva', data: { fileId }, nope: 1 }, runId },
      { 'accept-language': 'es' },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: string }>().error).toContain('answers.nope');
    expect(await storedFiles()).toEqual(before);

    const saved = await user.client.post('/api/saved-inputs', {
      workflowId: wf.id,
      name: 'From the form',
      answers: { name: 'Eva', data: { fileId } },
      runId,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const body = saved.json<TSavedInput>();
    expect(body.needsReview).toBe(false);
    expect(body.files).toMatchObject([{ questionId: 'data', filename: 'cities.csv' }]);
    expect(body.files[0]!.fileId).not.toBe(fileId);
    // The form's run still has its own upload.
    const [runFile] = await w.t.database.db.select().from(runInputFiles).where(eq(runInputFiles.id, fileId));
    expect(runFile).toBeDefined();
  });
});
