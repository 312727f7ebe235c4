import { createServer } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { creditTransactions } from '../src/server/db/schema.js';
import { readEvents } from '../src/server/modules/executions/testing/event-stream.js';
import { signUpUser, type TestClient } from '../src/server/test/client.js';
import { buildTestApp, type TestApp } from '../src/server/test/harness.js';
import { ledgerMismatches } from '../src/server/test/ledger-check.js';
import { splitCompletionMarker } from '../src/shared/contract/chat.js';
import type { TExecution } from '../src/shared/contract/executions.js';
import { DEMO_WORKFLOWS } from './catalog.js';
import type { DemoSlug } from './hooks/demos.js';

// Whole runs against the demo services, as a person would do them: start (free), chat or answer,
// complete (charged, decision 123); answers name their questions by id and are checked (decision 127); the app calls the demo over real HTTP (signed), the demo answers or calls back over real HTTP.

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

let t: TestApp;

beforeAll(async () => {
  // The seeded webhook URLs and the callback URL follow PUBLIC_URL, so the app must listen exactly there.
  const port = await freePort();
  // The slow demo at a fifth of its default pace (1 s a step instead of 5): the same four steps, sooner.
  // Private webhooks stay closed, as on a real deployment: the demos are the app's own address, which is
  // allowed by itself.
  t = await buildTestApp({
    DEMO_WORKFLOWS: 'true',
    DEMO_SLOW_STEP_MS: '1000',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ALLOW_PRIVATE_WEBHOOKS: 'false',
  });
  await t.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  if (t) {
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    await t.close();
  }
});

const demoId = (slug: DemoSlug) => DEMO_WORKFLOWS.find((d) => d.slug === slug)?.id ?? '';

async function balance(client: TestClient): Promise<number> {
  return (await client.get('/api/auth/me')).json<{ credits: number }>().credits;
}

async function start(client: TestClient, slug: DemoSlug, language: 'es' | 'en'): Promise<string> {
  const res = await client.post('/api/executions/start', { workflowId: demoId(slug), language });
  expect(res.statusCode).toBe(201);
  return res.json<{ executionId: string }>().executionId;
}

/** Completes the run, then follows it (as the client does) until it ends. */
async function complete(client: TestClient, executionId: string, responses: unknown[]): Promise<TExecution> {
  const res = await client.post(`/api/executions/${executionId}/complete`, { responses });
  expect(res.statusCode).toBe(200);
  const answered = res.json<TExecution>();
  if (answered.status !== 'running' && answered.status !== 'pending') return answered;
  return vi.waitFor(
    async () => {
      const run = (await client.get(`/api/executions/${executionId}`)).json<TExecution>();
      expect(run.status).not.toBe('running');
      expect(run.status).not.toBe('pending');
      return run;
    },
    { timeout: 60_000, interval: 250 },
  );
}

describe('runs of the demo workflows', () => {
  it('survey to CSV: charged once, completed with a downloadable CSV of the answers (es)', async () => {
    const { client } = await signUpUser(t);
    const executionId = await start(client, 'survey-csv', 'es');
    // Starting charges nothing; the answers do.
    expect(await balance(client)).toBe(5);
    const run = await complete(client, executionId, [
      { questionId: 'name', answer: 'Acme' },
      { questionId: 'score', answer: 9 },
      { questionId: 'channel', answer: 'Recomendación' },
      { questionId: 'liked', answer: ['Price', 'Support'] },
      { questionId: 'comments', answer: 'Nada' },
    ]);
    expect(run).toMatchObject({ status: 'completed', outputType: 'file', creditsUsed: 1 });
    expect(run.outputFilename).toMatch(/^respuestas-.*\.csv$/);
    const file = await client.get(`/result/${executionId}`);
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('Pregunta,Respuesta');
    // The workflow receives its own question texts and option labels in the run's language.
    expect(file.body).toContain('Nombre del cliente o empresa,Acme');
    expect(file.body).toContain('¿Cómo nos conociste?,Recomendación');
    expect(file.body).toContain('¿Qué valoraste más?,Precio; Soporte');
    expect(await balance(client)).toBe(4);
  });

  it('CSV summary: the uploaded CSV is read through its signed link and summarised (en), the link dies with the run', async () => {
    const { client } = await signUpUser(t);
    const executionId = await start(client, 'csv-summary', 'en');
    const form = new FormData();
    form.append('questionId', 'data');
    const csv = 'region,sales,units\nNorth,1200.5,10\nSouth,800,4\nNorth,99.5,1\n';
    form.append('file', new Blob([csv]), 'sales.csv');
    const upload = await fetch(`${t.config.publicUrl}/api/executions/${executionId}/files`, {
      method: 'POST',
      headers: { origin: t.config.publicUrl, cookie: client.cookie ?? '' },
      body: form,
    });
    expect(upload.status).toBe(201);
    const { fileId } = (await upload.json()) as { fileId: string };
    const run = await complete(client, executionId, [
      { questionId: 'data', answer: { fileId } },
      { questionId: 'include', answer: ['First rows'] },
    ]);
    expect(run).toMatchObject({ status: 'completed', outputType: 'text' });
    const message = (run.outputData as { message: string }).message;
    expect(message).toContain('**sales.csv**');
    expect(message).toContain('3 rows and 3 columns.');
    expect(message).toContain('- **sales**: total 2,100, average 700, from 99.5 to 1,200.5');
    expect(message).toContain('- **region**: 2 different values');
    expect(message).toContain('| North | 1200.5 | 10 |');
  });

  it('the failing demo ends failed with its reason, and the credit comes back as one refund row', async () => {
    const { client, id } = await signUpUser(t);
    const executionId = await start(client, 'always-fails', 'en');
    const run = await complete(client, executionId, [
      { questionId: 'warehouse', answer: 'Madrid' },
      { questionId: 'sku', answer: 'SKU-1' },
    ]);
    expect(run.status).toBe('failed');
    expect(run.errorMessage).toMatch(/always fails/);
    expect(await balance(client)).toBe(5);
    const refunds = await t.database.db
      .select()
      .from(creditTransactions)
      .where(and(eq(creditTransactions.userId, id), eq(creditTransactions.transactionType, 'refund')));
    expect(refunds).toHaveLength(1);
  });

  it('expense XLSX (multipart callback) and incident PDF (JSON callback) end completed with their files', async () => {
    const { client } = await signUpUser(t);
    const xlsx = await start(client, 'expense-xlsx', 'en');
    const pdf = await start(client, 'report-pdf', 'es');
    const expense = [
      { questionId: 'employee', answer: 'Ana' },
      { questionId: 'amount', answer: '120.50' },
      { questionId: 'type', answer: 'Travel' },
      { questionId: 'receipts', answer: ['Ticket'] },
      { questionId: 'purpose', answer: 'Client visit' },
    ];
    const incident = [
      { questionId: 'reporter', answer: 'Ana' },
      { questionId: 'severity', answer: 'Alta' },
      { questionId: 'affected', answer: 3 },
      { questionId: 'areas', answer: ['IT'] },
      { questionId: 'description', answer: 'El servidor se detuvo' },
    ];
    const [xlsxRun, pdfRun] = await Promise.all([
      complete(client, xlsx, expense),
      complete(client, pdf, incident),
    ]);
    expect(xlsxRun).toMatchObject({ status: 'completed', outputType: 'file' });
    expect(xlsxRun.outputFilename).toMatch(/\.xlsx$/);
    expect(pdfRun).toMatchObject({ status: 'completed', outputType: 'file' });
    expect(pdfRun.outputFilename).toMatch(/\.pdf$/);
    const workbook = await client.get(`/result/${xlsx}`);
    expect(workbook.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
    const report = await client.get(`/result/${pdf}`);
    expect(report.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(await balance(client)).toBe(5 - 2 - 2);
  });

  it('chart PNG: an image result', async () => {
    const { client } = await signUpUser(t);
    const executionId = await start(client, 'chart-png', 'en');
    const run = await complete(client, executionId, [
      { questionId: 'visits', answer: '3.5' },
      { questionId: 'leads', answer: '14' },
      { questionId: 'sales', answer: '5' },
      { questionId: 'tickets', answer: '2' },
    ]);
    expect(run).toMatchObject({ status: 'completed', outputType: 'image' });
    const image = await client.get(`/result/${executionId}`);
    expect(image.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('chatbot with the scripted assistant: a conversation to the marker, then a text summary', async () => {
    const { client } = await signUpUser(t);
    const workflowId = demoId('chat-summary');
    const executionId = await start(client, 'chat-summary', 'en');
    const messages: Array<{ role: 'user' | 'assistant'; content: string }> = [];
    let done = false;
    for (const answer of ['A product launch', 'About 120', 'Next June in Madrid', 'Around 15,000 euros']) {
      messages.push({ role: 'user', content: answer });
      const res = await client.post('/api/chat', { workflowId, executionId, messages, language: 'en' });
      expect(res.statusCode).toBe(200);
      const { content } = res.json<{ content: string }>();
      messages.push({ role: 'assistant', content });
      done = splitCompletionMarker(content).done;
      if (done) break;
    }
    expect(done).toBe(true);
    // The client sends each assistant question with the answer that followed it.
    const welcome =
      'Hi! I will help you prepare the brief for your event. What kind of event are you planning?';
    const questions = [welcome, ...messages.filter((m) => m.role === 'assistant').map((m) => m.content)];
    const responses = messages
      .filter((m) => m.role === 'user')
      .map((m, i) => ({ question: questions[i] ?? '', answer: m.content }));
    const run = await complete(client, executionId, responses);
    expect(run).toMatchObject({ status: 'completed', outputType: 'text' });
    expect(JSON.stringify(run.outputData)).toContain('A product launch');
  });

  it(
    'market research: four steps, the progress messages show on the run, then the result',
    { timeout: 90_000 },
    async () => {
      const { client } = await signUpUser(t);
      const executionId = await start(client, 'slow-research', 'es');
      // The run's event stream, as its page follows it: one event per change, until the run ends.
      const events = await readEvents(`${t.config.publicUrl}/api/executions/${executionId}/events`, {
        cookie: client.cookie!,
      });
      const finished = complete(client, executionId, [
        { question: '¿Quién es tu cliente objetivo?', answer: 'Pymes' },
      ]);
      const seen = new Set<string>();
      for (let event = await events.next(30_000); event; event = await events.next(30_000)) {
        const run = JSON.parse(event.data) as TExecution;
        if (run.progressMessage) seen.add(run.progressMessage);
      }
      expect(await finished).toMatchObject({ status: 'completed', outputType: 'text' });
      expect([...seen]).toEqual([
        'Leyendo tus respuestas…',
        'Comparando con datos de mercado…',
        'Redactando el informe…',
      ]);
    },
  );
});
