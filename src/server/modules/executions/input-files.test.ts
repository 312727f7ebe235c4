import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TSurveyQuestion } from '#shared/contract/workflows.js';
import { runInputFiles, workflowExecutions } from '#server/db/schema.js';
import type { TestClient } from '#server/test/client.js';
import {
  addWorkflow,
  grantCredits,
  postRunResult,
  runRow,
  signUpUser,
  startRun,
  useRunsWorld,
  type RunsWorld,
} from './testing/fixtures.js';
import { CSV, lyingXlsx, PDF, PNG, XLSX, zip } from './testing/samples.js';

const world: RunsWorld = useRunsWorld();

const CSV_QUESTION: TSurveyQuestion = {
  id: 'data',
  question: { es: 'Tus datos', en: 'Your data' },
  type: 'file',
  options: [],
  accept: ['csv', 'xlsx'],
  maxSizeMb: 1,
};
const NAME_QUESTION: TSurveyQuestion = {
  id: 'name',
  question: { es: '¿Nombre?', en: 'Name?' },
  type: 'text',
  options: [],
};

interface UploadAnswer {
  status: number;
  body: {
    fileId?: string;
    filename?: string;
    size?: number;
    contentType?: string;
    error?: string;
    code?: string;
  };
}

/** Uploads over real HTTP as the browser does: multipart, the session cookie, the app's own origin. */
async function upload(
  client: TestClient,
  runId: string,
  questionId: string,
  filename: string,
  bytes: Buffer,
  lng: 'es' | 'en' = 'en',
): Promise<UploadAnswer> {
  const form = new FormData();
  form.append('questionId', questionId);
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  const res = await fetch(`${world.baseUrl}/api/executions/${runId}/files`, {
    method: 'POST',
    headers: { origin: world.baseUrl, cookie: client.cookie ?? '', 'accept-language': lng },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as UploadAnswer['body'] };
}

/** The files the store holds (result files and uploads share it). */
async function storedFiles(): Promise<string[]> {
  try {
    return await readdir(join(world.dataDir, 'results'));
  } catch {
    return [];
  }
}

async function filesOfRun(runId: string) {
  return world.t.database.db.select().from(runInputFiles).where(eq(runInputFiles.executionId, runId));
}

describe('files as survey answers', () => {
  let user: Awaited<ReturnType<typeof signUpUser>>;
  let workflowId: string;

  beforeAll(async () => {
    user = await signUpUser(world.t);
    await grantCredits(world, user.id, 100);
    workflowId = (await addWorkflow(world, { surveyQuestions: [NAME_QUESTION, CSV_QUESTION] })).id;
  });

  /** A run of a workflow of its own: opening `workflowId` again would answer the user's unsent run of it. */
  const newRun = async () =>
    startRun(user.client, (await addWorkflow(world, { surveyQuestions: [NAME_QUESTION, CSV_QUESTION] })).id);

  it('sends the workflow a signed link that gives exactly the uploaded bytes, and refuses it once the run ends', async () => {
    const runId = await startRun(user.client, workflowId);
    const bytes = Buffer.from('city,people\nLima,10\nQuito,7\n', 'utf8');
    const uploaded = await upload(user.client, runId, 'data', 'cities.csv', bytes);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ filename: 'cities.csv', size: bytes.length });
    expect(uploaded.body.contentType).toMatch(/^text\/csv/);

    // The workflow service fetches the file through its link while it handles the call, without any session.
    let fetched: { status: number; bytes: Buffer; type: string | null } | undefined;
    let answer: { filename: string; content_type: string; size: number; url: string } | undefined;
    world.service.handle(async (call) => {
      const responses = call.body.responses as Array<{ question: string; answer: unknown }>;
      answer = responses.find((r) => r.question === 'Tus datos')?.answer as typeof answer;
      const res = await fetch(answer!.url);
      fetched = {
        status: res.status,
        bytes: Buffer.from(await res.arrayBuffer()),
        type: res.headers.get('content-type'),
      };
      return { status: 202, body: { accepted: true } };
    });
    const completion = user.client.post(`/api/executions/${runId}/complete`, {
      responses: [
        { question: '¿Nombre?', answer: 'Ana' },
        { question: 'Tus datos', answer: { fileId: uploaded.body.fileId } },
      ],
    });
    const call = await world.service.callFor(runId);
    expect(answer).toMatchObject({ filename: 'cities.csv', size: bytes.length });
    expect(answer!.content_type).toMatch(/^text\/csv/);
    expect(answer!.url.startsWith(`${world.baseUrl}/api/executions/${runId}/files/`)).toBe(true);
    expect(fetched?.status).toBe(200);
    expect(fetched?.bytes.equals(bytes)).toBe(true);
    // The storage key never leaves the server.
    const [stored] = await filesOfRun(runId);
    expect(call.rawBody).not.toContain(stored!.storageKey);

    // The run ends: the same link is refused.
    const result = await postRunResult(
      world,
      { runId, token: call.body.secret_token },
      { output_data: { summary: '2 rows' } },
    );
    expect(result.status).toBe(200);
    expect((await completion).statusCode).toBe(200);
    const late = await fetch(answer!.url, { headers: { 'accept-language': 'es' } });
    expect(late.status).toBe(403);
    expect(await late.json()).toEqual({
      error: 'Este enlace de archivo no es válido, o su ejecución ya terminó',
      code: 'FORBIDDEN',
      key: 'fileLinkInvalid',
    });

    // An ended run takes no more files.
    const afterEnd = await upload(user.client, runId, 'data', 'more.csv', CSV);
    expect(afterEnd.status).toBe(409);
    expect(afterEnd.body.code).toBe('CONFLICT');

    // The run page shows the file answer by its name.
    const detail = (await user.client.get(`/api/executions/${runId}`)).json() as {
      answers: Array<{ question: string; answer: unknown }>;
    };
    const shown = {
      question: 'Tus datos',
      answer: {
        fileId: uploaded.body.fileId,
        filename: 'cities.csv',
        contentType: answer!.content_type,
        size: bytes.length,
      },
    };
    expect(detail.answers[1]).toEqual(shown);

    // A run completed before decision 137 kept the file's type as `content_type`: its page reads the same.
    const legacy = [
      detail.answers[0],
      {
        question: 'Tus datos',
        answer: { ...shown.answer, contentType: undefined, content_type: answer!.content_type },
      },
    ];
    await world.t.database.db
      .update(workflowExecutions)
      .set({ inputData: JSON.parse(JSON.stringify(legacy)) as unknown })
      .where(eq(workflowExecutions.id, runId));
    const legacyDetail = (await user.client.get(`/api/executions/${runId}`)).json() as typeof detail;
    expect(legacyDetail.answers[1]).toEqual(shown);
  });

  it("keeps and serves an answer's name without bidirectional or zero-width characters", async () => {
    const runId = await startRun(user.client, workflowId);
    const uploaded = await upload(user.client, runId, 'data', 'datos\u202Evsc\u200B.csv', CSV);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.filename).toBe('datosvsc.csv');
    expect((await filesOfRun(runId)).map((f) => f.filename)).toEqual(['datosvsc.csv']);
    world.service.handle(() => ({ status: 202, body: { accepted: true } }));
    const completion = user.client.post(`/api/executions/${runId}/complete`, {
      responses: [
        { question: '¿Nombre?', answer: 'Ana' },
        { question: 'Tus datos', answer: { fileId: uploaded.body.fileId } },
      ],
    });
    const call = await world.service.callFor(runId);
    const responses = call.body.responses as Array<{ answer: { url: string; filename: string } }>;
    expect(responses[1]!.answer.filename).toBe('datosvsc.csv');
    const served = await fetch(responses[1]!.answer.url);
    expect(served.headers.get('content-disposition')).toBe(
      `attachment; filename="datosvsc.csv"; filename*=UTF-8''datosvsc.csv`,
    );
    await postRunResult(world, { runId, token: call.body.secret_token }, {});
    await completion;
  });

  it('refuses a link with a changed signature, file or expiry (403), and a link past its expiry', async () => {
    const runId = await startRun(user.client, workflowId);
    const uploaded = await upload(user.client, runId, 'data', 'table.xlsx', XLSX);
    expect(uploaded.status).toBe(201);
    world.service.handle(() => ({ status: 202, body: { accepted: true } }));
    const completion = user.client.post(`/api/executions/${runId}/complete`, {
      responses: [
        { question: '¿Nombre?', answer: 'Ana' },
        { question: 'Tus datos', answer: { fileId: uploaded.body.fileId } },
      ],
    });
    const call = await world.service.callFor(runId);
    const responses = call.body.responses as Array<{ answer: { url?: string } }>;
    const url = new URL(responses[1]!.answer.url!);
    expect((await fetch(url)).status).toBe(200);
    const expires = Number(url.searchParams.get('expires'));
    const run = await runRow(world, runId);
    // Never beyond the run's own expiry.
    expect(expires * 1000).toBeLessThanOrEqual(run.expiresAt!.getTime());

    const tampered = (change: (u: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      return fetch(copy);
    };
    const sig = url.searchParams.get('signature')!;
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect((await tampered((u) => u.searchParams.set('signature', flipped))).status).toBe(403);
    expect((await tampered((u) => u.searchParams.set('expires', String(expires + 60)))).status).toBe(403);
    const otherFile = url.pathname.replace(/files\/[^/]+$/, `files/${crypto.randomUUID()}`);
    expect((await tampered((u) => (u.pathname = otherFile))).status).toBe(403);

    // Later than its expiry (the clock moves past it), the genuine link is refused too.
    world.t.clock.advance(expires * 1000 - Date.now() + 1000);
    try {
      expect((await fetch(url)).status).toBe(403);
    } finally {
      world.t.clock.reset();
    }
    await postRunResult(world, { runId, token: call.body.secret_token }, {});
    await completion;
  });

  it('lets the owner remove a file and upload another, and refuses a second upload for the question', async () => {
    const runId = await newRun();
    const first = await upload(user.client, runId, 'data', 'a.csv', CSV);
    expect(first.status).toBe(201);
    const before = await storedFiles();

    const second = await upload(user.client, runId, 'data', 'b.csv', CSV, 'es');
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      error: 'Ya se subió un archivo para esta pregunta: quítalo antes de subir otro',
      code: 'CONFLICT',
      key: 'fileAlreadyUploaded',
    });
    expect(await storedFiles()).toEqual(before);
    expect(await filesOfRun(runId)).toHaveLength(1);

    const removed = await user.client.delete(`/api/executions/${runId}/files/${first.body.fileId}`);
    expect(removed.statusCode).toBe(204);
    expect(await filesOfRun(runId)).toHaveLength(0);
    expect((await storedFiles()).length).toBe(before.length - 1);

    const replaced = await upload(user.client, runId, 'data', 'b.csv', CSV);
    expect(replaced.status).toBe(201);
    expect(replaced.body.filename).toBe('b.csv');
    // A removed file cannot be removed again.
    expect((await user.client.delete(`/api/executions/${runId}/files/${first.body.fileId}`)).statusCode).toBe(
      404,
    );
  });

  it.each([
    [
      'a kind the question does not accept',
      'report.pdf',
      PDF,
      400,
      'Esta pregunta solo admite archivos csv, xlsx',
    ],
    ['PNG bytes named .csv', 'fake.csv', PNG, 400, 'El contenido del archivo no es un archivo .csv válido'],
    [
      'a zip that is not a workbook named .xlsx',
      'fake.xlsx',
      zip({ 'a.txt': 'x' }),
      400,
      'El contenido del archivo no es un archivo .xlsx válido',
    ],
    [
      'a workbook that lies about its sizes (a zip bomb)',
      'bomb.xlsx',
      lyingXlsx(),
      400,
      'El contenido del archivo no es un archivo .xlsx válido',
    ],
    ['an empty file', 'empty.csv', Buffer.alloc(0), 400, 'El archivo está vacío'],
    [
      'a file over the question limit (1 MB)',
      'big.csv',
      Buffer.alloc(1024 * 1024 + 1, 'a'),
      413,
      'El archivo supera los 1 MB, el máximo que admite esta pregunta',
    ],
  ])(
    'refuses %s in the reader language and keeps nothing',
    async (_what, filename, bytes, status, message) => {
      const runId = await newRun();
      const before = await storedFiles();
      const res = await upload(user.client, runId, 'data', filename, bytes, 'es');
      expect(res.status).toBe(status);
      expect(res.body.error).toBe(message);
      expect(await storedFiles()).toEqual(before);
      expect(await filesOfRun(runId)).toHaveLength(0);
    },
  );

  it('refuses two files in one upload, and an upload without its question, keeping nothing', async () => {
    const runId = await newRun();
    const before = await storedFiles();
    const form = new FormData();
    form.append('questionId', 'data');
    form.append('file', new Blob([new Uint8Array(CSV)]), 'a.csv');
    form.append('file', new Blob([new Uint8Array(CSV)]), 'b.csv');
    const two = await fetch(`${world.baseUrl}/api/executions/${runId}/files`, {
      method: 'POST',
      headers: { origin: world.baseUrl, cookie: user.client.cookie ?? '' },
      body: form,
    });
    expect(two.status).toBe(413);
    const bare = new FormData();
    bare.append('file', new Blob([new Uint8Array(CSV)]), 'a.csv');
    const noQuestion = await fetch(`${world.baseUrl}/api/executions/${runId}/files`, {
      method: 'POST',
      headers: { origin: world.baseUrl, cookie: user.client.cookie ?? '', 'accept-language': 'es' },
      body: bare,
    });
    expect(noQuestion.status).toBe(400);
    expect(await noQuestion.json()).toEqual({
      error: 'Envía los campos multipart questionId y file',
      code: 'VALIDATION_ERROR',
      key: 'uploadNeedsFile',
    });
    expect(await storedFiles()).toEqual(before);
    expect(await filesOfRun(runId)).toHaveLength(0);
  });

  it('refuses a file over the live setting before reading it all, in English too', async () => {
    const config = (await world.admin.get('/api/admin/config')).json() as Array<{ id: string; key: string }>;
    const entry = config.find((c) => c.key === 'max_input_file_mb')!;
    expect((await world.admin.patch(`/api/admin/config/${entry.id}`, { value: 1 })).statusCode).toBe(200);
    const open = (
      await addWorkflow(world, {
        surveyQuestions: [{ ...CSV_QUESTION, accept: undefined, maxSizeMb: undefined }],
      })
    ).id;
    try {
      const runId = await startRun(user.client, open);
      const before = await storedFiles();
      const res = await upload(user.client, runId, 'data', 'big.csv', Buffer.alloc(2 * 1024 * 1024, 'a'));
      expect(res.status).toBe(413);
      expect(res.body.error).toBe('The file is larger than 1 MB, the most this question accepts');
      expect(await storedFiles()).toEqual(before);
    } finally {
      await world.admin.patch(`/api/admin/config/${entry.id}`, { value: 10 });
    }
  });

  it("refuses a file for someone else's run, a question that takes no file, and a cross-site upload", async () => {
    const runId = await newRun();
    const other = await signUpUser(world.t);
    const before = await storedFiles();
    const foreign = await upload(other.client, runId, 'data', 'a.csv', CSV, 'es');
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'Ejecución no encontrada', code: 'NOT_FOUND', key: 'execution' });
    const notFile = await upload(user.client, runId, 'name', 'a.csv', CSV);
    expect(notFile.status).toBe(400);
    expect(notFile.body.error).toBe('This workflow has no file question name');

    const mine = await upload(user.client, runId, 'data', 'a.csv', CSV);
    const count = (await storedFiles()).length;
    // Someone else cannot remove it either.
    expect((await other.client.delete(`/api/executions/${runId}/files/${mine.body.fileId}`)).statusCode).toBe(
      404,
    );
    expect(await filesOfRun(runId)).toHaveLength(1);
    expect((await storedFiles()).length).toBe(count);
    expect(before.length + 1).toBe(count);

    // Without the app's origin (a cross-site form), the upload is refused before anything is read.
    const form = new FormData();
    form.append('questionId', 'data');
    form.append('file', new Blob([new Uint8Array(CSV)]), 'a.csv');
    const crossSite = await fetch(`${world.baseUrl}/api/executions/${runId}/files`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', cookie: user.client.cookie ?? '' },
      body: form,
    });
    expect(crossSite.status).toBe(403);
  });

  it('refuses to complete without the required file, or with a file that is not of this run, changing nothing', async () => {
    const runId = await startRun(user.client, workflowId);
    const missing = await user.client.post(
      `/api/executions/${runId}/complete`,
      { responses: [{ question: '¿Nombre?', answer: 'Ana' }] },
      { 'accept-language': 'es' },
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      error: 'Revisa las respuestas: "Tus datos" (answers.data): Sube un archivo para esta pregunta',
      code: 'VALIDATION_ERROR',
      key: 'invalidAnswers',
      params: { problems: '"Tus datos" (answers.data): Sube un archivo para esta pregunta' },
      details: {
        fields: [
          { field: 'answers.data', message: 'Sube un archivo para esta pregunta', key: 'answerFileRequired' },
        ],
      },
    });
    const foreign = await user.client.post(`/api/executions/${runId}/complete`, {
      responses: [
        { question: '¿Nombre?', answer: 'Ana' },
        { question: 'Tus datos', answer: { fileId: crypto.randomUUID() } },
      ],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({
      error:
        'Check the answers: "Tus datos" (answers.data): The answer is not a file uploaded to this run for this question',
    });
    const run = await runRow(world, runId);
    expect(run.status).toBe('pending');
    expect(run.dispatchedAt).toBeNull();
    expect(world.service.calls.some((c) => c.body.execution_id === runId)).toBe(false);
  });

  it('removes the uploaded files with the workflow and its runs', async () => {
    const doomed = (await addWorkflow(world, { surveyQuestions: [CSV_QUESTION] })).id;
    const runId = await startRun(user.client, doomed);
    const before = await storedFiles();
    const uploaded = await upload(user.client, runId, 'data', 'a.csv', CSV);
    expect(uploaded.status).toBe(201);
    expect((await storedFiles()).length).toBe(before.length + 1);
    const res = await world.admin.delete(`/api/workflows/${doomed}`);
    expect(res.statusCode).toBe(200);
    expect(await storedFiles()).toEqual(before);
    expect(await filesOfRun(runId)).toHaveLength(0);
  });

  it("removes a person's uploaded files when they delete their account", async () => {
    const leaving = await signUpUser(world.t);
    await grantCredits(world, leaving.id, 5);
    const runId = await startRun(leaving.client, workflowId);
    const before = await storedFiles();
    expect((await upload(leaving.client, runId, 'data', 'a.csv', CSV)).status).toBe(201);
    const res = await leaving.client.post('/api/account/delete', { password: leaving.password });
    expect(res.statusCode).toBe(200);
    expect(await storedFiles()).toEqual(before);
    expect(await filesOfRun(runId)).toHaveLength(0);
  });

  it('the public API refuses a workflow with a file question before charging, and its schema says why', async () => {
    const key = await user.client.post('/api/account/api-keys', { name: 'files' });
    expect(key.statusCode).toBe(201);
    const token = (key.json() as { key: string }).key;
    const auth = { authorization: `Bearer ${token}` };
    const described = await world.t.app.inject({
      method: 'GET',
      url: `/api/v1/workflows/${workflowId}`,
      headers: auth,
    });
    const schema = (
      described.json() as { inputSchema: { properties: Record<string, Record<string, unknown>> } }
    ).inputSchema;
    expect(schema.properties.data).toMatchObject({
      not: {},
      'x-flujo-file': { accept: ['csv', 'xlsx'], maxSizeMb: 1 },
    });
    const before = (await world.t.app.inject({ method: 'GET', url: '/api/v1/me', headers: auth })).json() as {
      balance: number;
    };
    const res = await world.t.app.inject({
      method: 'POST',
      url: '/api/v1/runs',
      headers: { ...auth, 'content-type': 'application/json', 'accept-language': 'es' },
      payload: JSON.stringify({ workflowId, answers: { name: 'Ana' } }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      error:
        'Este workflow pide archivos, que la API aún no puede enviar (answers.data); usa la aplicación web',
    });
    const after = (await world.t.app.inject({ method: 'GET', url: '/api/v1/me', headers: auth })).json() as {
      balance: number;
    };
    expect(after.balance).toBe(before.balance);
  });
});
