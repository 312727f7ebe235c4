import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config.js';
import { userProfiles, users, userWorkflows } from '../src/server/db/schema.js';
import { seed } from '../src/server/db/seed.js';
import { headerTokenFor } from '../src/server/modules/workflows/secrets.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from '../src/server/test/harness.js';
import { ledgerMismatches } from '../src/server/test/ledger-check.js';
import { QUESTION_TYPES } from '../src/shared/contract/workflows.js';
import { DEMO_WORKFLOWS } from './catalog.js';
import type { DemoSlug } from './hooks/demos.js';

const PUBLIC_URL = 'http://flujo.test:3000';

interface Received {
  contentType: string;
  fields: Record<string, unknown>;
  file?: { name: string; type: string; bytes: Buffer };
}

/** The callback_url side: a real HTTP server that records what the demo services post back. */
async function startCallbackServer() {
  const received: Received[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const contentType = req.headers['content-type'] ?? '';
      const entry: Received = { contentType, fields: {} };
      if (contentType.startsWith('multipart/form-data')) {
        const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
        for (const [key, value] of form.entries()) {
          if (typeof value === 'string') entry.fields[key] = value;
          else
            entry.file = {
              name: value.name,
              type: value.type,
              bytes: Buffer.from(await value.arrayBuffer()),
            };
        }
      } else {
        entry.fields = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      }
      received.push(entry);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    /** Resolves once `count` callbacks in all have arrived. */
    until: (count: number) =>
      new Promise<void>((resolve) => {
        if (received.length >= count) resolve();
        else waiters.push({ count, resolve });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let t: TestApp;
let hooksUrl: string;
let callbacks: Awaited<ReturnType<typeof startCallbackServer>>;

beforeAll(async () => {
  callbacks = await startCallbackServer();
  t = await buildTestApp({ DEMO_WORKFLOWS: 'true', DEMO_SLOW_STEP_MS: '1000', PUBLIC_URL });
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  hooksUrl = `${address}/demo-hooks`;
});
afterAll(async () => {
  if (t) {
    expect(await ledgerMismatches(t.database.db)).toEqual([]);
    await t.close();
  }
  await callbacks?.close();
});

async function workflowOf(slug: DemoSlug) {
  const demo = DEMO_WORKFLOWS.find((d) => d.slug === slug);
  const [row] = await t.database.db
    .select()
    .from(userWorkflows)
    .where(eq(userWorkflows.id, demo?.id ?? ''));
  if (!row) throw new Error(`demo ${slug} not seeded`);
  return row;
}

interface CallOptions {
  /** Another workflow than the seeded one of that slug (its id and secret sign the call). */
  workflow?: { id: string; secretToken: string };
  secret?: string;
  timestamp?: Date;
  tamper?: (body: string) => string;
  flujoToken?: string;
  language?: 'es' | 'en';
  responses?: Array<{ question: string; answer: string | string[] }>;
}

/** Calls a demo service exactly as the app's dispatcher does, signed with the standardwebhooks library. */
async function callDemo(slug: DemoSlug, options: CallOptions = {}) {
  const workflow = options.workflow ?? (await workflowOf(slug));
  const executionId = randomUUID();
  const secretToken = `run-token-${executionId}`;
  const body = JSON.stringify({
    workflow_id: workflow.id,
    execution_id: executionId,
    user_id: randomUUID(),
    secret_token: secretToken,
    responses: options.responses ?? [
      { question: 'Customer or company name', answer: 'Acme, S.L.' },
      { question: 'Score', answer: '9' },
      { question: 'What did you value most?', answer: ['Price / Precio', 'Speed / Rapidez'] },
    ],
    language: options.language ?? 'en',
    callback_url: callbacks.url,
  });
  const id = `msg_${executionId}`;
  const timestamp = options.timestamp ?? new Date();
  const signature = new Webhook(options.secret ?? workflow.secretToken).sign(id, timestamp, body);
  const res = await fetch(`${hooksUrl}/${slug}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
      'x-flujo-token': options.flujoToken ?? headerTokenFor(workflow.secretToken),
    },
    body: options.tamper ? options.tamper(body) : body,
  });
  return { res, json: (await res.json()) as Record<string, unknown>, executionId, secretToken };
}

describe('seeded demo workflows', () => {
  it('are public, active, owned by the admin, and point at this server', async () => {
    const [admin] = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, TEST_ADMIN.email));
    const rows = await t.database.db.select().from(userWorkflows);
    expect(rows).toHaveLength(DEMO_WORKFLOWS.length);
    for (const demo of DEMO_WORKFLOWS) {
      const row = rows.find((r) => r.id === demo.id);
      expect(row).toMatchObject({
        isPublic: true,
        isActive: true,
        userId: admin?.id,
        webhookUrl: `${PUBLIC_URL}/demo-hooks/${demo.slug}`,
      });
      expect(row?.secretToken).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(row?.creditsPerExecution).toBeGreaterThanOrEqual(1);
      expect(row?.creditsPerExecution).toBeLessThanOrEqual(3);
      if (row?.interactionType === 'chatbot') {
        expect(row.welcomeMessage?.es && row.welcomeMessage.en && row.aiPrompt).toBeTruthy();
      }
    }
    const types = new Set(rows.flatMap((r) => r.surveyQuestions.map((q) => q.type)));
    expect([...types].sort()).toEqual([...QUESTION_TYPES].sort());
    const withOptions = rows
      .flatMap((r) => r.surveyQuestions)
      .filter((q) => q.type === 'select' || q.type === 'checkbox');
    expect(withOptions.every((q) => q.options.length >= 2)).toBe(true);
  });

  it('are updated, not duplicated, on the next start: URL follows PUBLIC_URL, secret and switches stay', async () => {
    const before = await workflowOf('survey-csv');
    await t.database.db.update(userWorkflows).set({ isActive: false }).where(eq(userWorkflows.id, before.id));
    const moved = loadConfig({
      NODE_ENV: 'test',
      DEMO_WORKFLOWS: 'true',
      PUBLIC_URL: 'https://flujo.example.com',
      ADMIN_EMAIL: TEST_ADMIN.email,
      ADMIN_PASSWORD: TEST_ADMIN.password,
    });
    try {
      await seed({ ...t.deps, config: moved });
      const after = await workflowOf('survey-csv');
      expect(after.webhookUrl).toBe('https://flujo.example.com/demo-hooks/survey-csv');
      expect(after.secretToken).toBe(before.secretToken);
      expect(after.isActive).toBe(false);
      expect(await t.database.db.$count(userWorkflows)).toBe(DEMO_WORKFLOWS.length);
      expect(await t.database.db.$count(userProfiles)).toBe(1);
    } finally {
      await t.database.db
        .update(userWorkflows)
        .set({ isActive: true })
        .where(eq(userWorkflows.id, before.id));
      await seed(t.deps);
    }
  });
});

describe('OpenAPI', () => {
  it('documents the chat, translate and demo service routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/chat', '/api/admin/translate', '/demo-hooks/{slug}']),
    );
  });
});

describe('demo services refuse what the app did not sign', () => {
  it('401 for a wrong secret, a changed body, an old timestamp or a token that does not match', async () => {
    const wrongSecret = await callDemo('chat-summary', {
      secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    });
    expect(wrongSecret.res.status).toBe(401);
    expect(wrongSecret.json).toEqual({
      error: 'Invalid webhook signature',
      code: 'UNAUTHENTICATED',
      key: 'default',
    });
    const tampered = await callDemo('chat-summary', { tamper: (b) => b.replace('Acme', 'Evil') });
    expect(tampered.res.status).toBe(401);
    const stale = await callDemo('chat-summary', { timestamp: new Date(Date.now() - 10 * 60_000) });
    expect(stale.res.status).toBe(401);
    const token = await callDemo('chat-summary', { flujoToken: 'someone-else' });
    expect(token.res.status).toBe(401);
    // The per-run body token is not the header value: the header is fixed per workflow.
    const runToken = await callDemo('chat-summary', { flujoToken: `run-token-${randomUUID()}` });
    expect(runToken.res.status).toBe(401);
    const otherHeader = headerTokenFor((await workflowOf('survey-csv')).secretToken);
    expect((await callDemo('chat-summary', { flujoToken: otherHeader })).res.status).toBe(401);
    // Another workflow's secret does not open this one.
    const other = await workflowOf('survey-csv');
    expect((await callDemo('chat-summary', { secret: other.secretToken })).res.status).toBe(401);
  });

  it('401 for a workflow whose secret it was never given, though Flujo stores it and signs with it', async () => {
    // The services hold only the secrets the seeding handed them; they never read the workflows table, so a
    // workflow an admin points at a demo address by hand is a stranger to them, as to any outside service.
    const [stranger] = await t.database.db
      .insert(userWorkflows)
      .values({
        name: { en: 'Hand-made', es: 'Hecho a mano' },
        category: { en: 'Other', es: 'Otros' },
        webhookUrl: `${PUBLIC_URL}/demo-hooks/chat-summary`,
        secretToken: `whsec_${Buffer.alloc(32, 5).toString('base64')}`,
      })
      .returning({ id: userWorkflows.id, secretToken: userWorkflows.secretToken });
    if (!stranger) throw new Error('the hand-made workflow was not stored');
    try {
      const call = await callDemo('chat-summary', { workflow: stranger });
      expect(call.res.status).toBe(401);
      expect(call.json).toEqual({
        error: 'Invalid webhook signature',
        code: 'UNAUTHENTICATED',
        key: 'default',
      });
    } finally {
      await t.database.db.delete(userWorkflows).where(eq(userWorkflows.id, stranger.id));
    }
  });

  it('401 without signature headers, 400 for a body that is not a webhook call', async () => {
    const bare = await fetch(`${hooksUrl}/chat-summary`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        workflow_id: (await workflowOf('chat-summary')).id,
        execution_id: randomUUID(),
        user_id: randomUUID(),
        secret_token: 'x',
        responses: [],
        language: 'en',
        callback_url: callbacks.url,
      }),
    });
    expect(bare.status).toBe(401);
    const junk = await fetch(`${hooksUrl}/chat-summary`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"hello":',
    });
    expect(junk.status).toBe(400);
    expect(await junk.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(callbacks.received).toHaveLength(0);
  });
});

describe('each demo answers a valid result of its kind', () => {
  it('chat-summary: a text summary of the conversation, in the webhook answer', async () => {
    const { res, json } = await callDemo('chat-summary', {
      language: 'es',
      responses: [
        { question: '¿Qué tipo de evento?', answer: 'Una boda' },
        { question: '¿Cuántos invitados?', answer: '80' },
      ],
    });
    expect(res.status).toBe(200);
    expect(json).toMatchObject({ status: 'completed', output_type: 'text' });
    const message = (json.output_data as { message: string }).message;
    expect(message).toContain('Este es el resumen');
    expect(message).toContain('- Una boda');
    expect(message).toContain('- 80');
  });

  it('survey-csv: a CSV file of the answers', async () => {
    const { res, json } = await callDemo('survey-csv');
    expect(res.status).toBe(200);
    expect(json).toMatchObject({
      status: 'completed',
      output_type: 'file',
      filename: expect.stringMatching(/\.csv$/),
    });
    const csv = Buffer.from(String(json.file_data), 'base64').toString('utf8');
    expect(csv.split('\r\n')).toEqual([
      '\uFEFFQuestion,Answer',
      'Customer or company name,"Acme, S.L."',
      'Score,9',
      'What did you value most?,Price / Precio; Speed / Rapidez',
      '',
    ]);
  });

  it('chart-png: a PNG image', async () => {
    const { res, json } = await callDemo('chart-png', {
      responses: [
        { question: 'Visits', answer: '12' },
        { question: 'Leads', answer: '30' },
      ],
    });
    expect(res.status).toBe(200);
    expect(json).toMatchObject({
      status: 'completed',
      output_type: 'image',
      filename: expect.stringMatching(/\.png$/),
    });
    const png = Buffer.from(String(json.file_data), 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect((json.output_data as { values: number[] }).values).toEqual([12, 30]);
  });

  it('always-fails: a failed result with a clear reason', async () => {
    const { res, json } = await callDemo('always-fails');
    expect(res.status).toBe(200);
    expect(json.status).toBe('failed');
    expect(json.error_message).toMatch(/always fails; your credits are refunded/);
  });

  it('expense-xlsx and report-pdf: {received: true}, then the file posted to callback_url', async () => {
    const start = callbacks.received.length;
    const xlsx = await callDemo('expense-xlsx');
    const pdf = await callDemo('report-pdf', { language: 'es' });
    expect([xlsx.res.status, pdf.res.status]).toEqual([202, 202]);
    expect(xlsx.json).toEqual({ received: true });
    await callbacks.until(start + 2);
    const posted = callbacks.received.slice(start);

    const workbook = posted.find((p) => p.fields.execution_id === xlsx.executionId);
    expect(workbook?.contentType).toMatch(/^multipart\/form-data/);
    expect(workbook?.fields).toMatchObject({
      secret_token: xlsx.secretToken,
      status: 'completed',
      output_type: 'file',
      filename: expect.stringMatching(/^expenses-.*\.xlsx$/),
    });
    expect(JSON.parse(String(workbook?.fields.output_data))).toHaveProperty('message');
    expect(workbook?.file?.name).toMatch(/\.xlsx$/);
    expect(workbook?.file?.bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));

    const report = posted.find((p) => p.fields.execution_id === pdf.executionId);
    expect(report?.contentType).toMatch(/^application\/json/);
    expect(report?.fields).toMatchObject({
      secret_token: pdf.secretToken,
      status: 'completed',
      output_type: 'file',
      filename: expect.stringMatching(/^informe-.*\.pdf$/),
    });
    const bytes = Buffer.from(String(report?.fields.file_data), 'base64');
    expect(bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(bytes.toString('latin1')).toContain('Informe de incidencia');
  });

  it(
    'slow-research: three progress messages, then the result, all to callback_url',
    { timeout: 60_000 },
    async () => {
      const start = callbacks.received.length;
      const { res, json, executionId } = await callDemo('slow-research');
      expect(res.status).toBe(202);
      expect(json).toEqual({ received: true });
      await callbacks.until(start + 4);
      const posted = callbacks.received.slice(start).filter((p) => p.fields.execution_id === executionId);
      expect(posted.map((p) => p.fields.status)).toEqual(['running', 'running', 'running', 'completed']);
      expect(posted.slice(0, 3).map((p) => (p.fields.output_data as { message: string }).message)).toEqual([
        'Reading your answers…',
        'Comparing with market data…',
        'Writing the report…',
      ]);
      expect(posted[3]?.fields).toMatchObject({ output_type: 'text' });
    },
  );
});
