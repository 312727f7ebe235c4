import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TApiKeyCreated } from '#shared/contract/api-keys.js';
import { DURATION_BUCKETS_MS } from '#shared/contract/operations.js';
import { workflowExecutions, workflowHealthDays } from '#server/db/schema.js';
import type { TestClient } from '#server/test/client.js';
import { buildTestApp } from '#server/test/harness.js';
import type * as ApiRuns from './api-runs.js';
import { expireOverdueRuns } from '../executions/sweeper.js';
import { MCP_STREAMS_PER_KEY } from './mcp-streams.js';
import {
  addChatWorkflow,
  addWorkflow,
  balanceOf,
  postResult,
  signUpUser,
  startRunsWorld,
  type RunsWorld,
} from '../executions/testing/fixtures.js';

/** While set, a run lookup fails as a database error would, with the SQL and the caller's id in its text. */
const failLookups = vi.hoisted(() => ({ on: false }));
vi.mock('./api-runs.js', async (original) => {
  const real = await original<typeof ApiRuns>();
  return {
    ...real,
    getApiRun: (...args: Parameters<typeof real.getApiRun>) => {
      if (!failLookups.on) return real.getApiRun(...args);
      throw new Error(
        `Failed query: select * from workflow_executions where user_id = $1 params: ${args[1]}`,
      );
    },
  };
});

/*
 * The MCP server through the SDK's own client over HTTP, against the app listening on a port with the demo
 * workflows (their services answer like real ones) and a test workflow service for progress.
 */

let w: RunsWorld;
beforeAll(async () => {
  w = await startRunsWorld({ DEMO_WORKFLOWS: 'true', DEMO_CHAT_WORD_MS: '1' });
}, 60_000);
afterAll(async () => w?.close());

async function newKey(client: TestClient): Promise<string> {
  const res = await client.post('/api/account/api-keys', { name: 'agent' });
  return res.json<TApiKeyCreated>().key;
}

async function connect(key: string): Promise<Client> {
  return (await connectWatching(key)).client;
}

/**
 * A client, and a promise that settles once its standalone GET stream is open: the SDK client opens it by
 * itself after initialising, and a change made before that would reach no stream.
 */
async function connectWatching(key: string): Promise<{ client: Client; streamOpen: Promise<void> }> {
  const client = new Client({ name: 'flujo-test', version: '1.0.0' });
  let opened!: () => void;
  const streamOpen = new Promise<void>((resolve) => (opened = resolve));
  const transport = new StreamableHTTPClientTransport(new URL(`${w.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method === 'GET' && res.status === 200) opened();
      return res;
    },
  });
  await client.connect(transport);
  return { client, streamOpen };
}

/** A raw GET /mcp stream, as an agent host opens it. */
async function openStream(key: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${w.baseUrl}/mcp`, {
    headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
    signal,
  });
}

const texts = (result: CallToolResult) =>
  result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');

describe('MCP at /mcp', () => {
  it('refuses a wrong key', async () => {
    await expect(connect('flj_wrongwrongwrongwrongwrongwrongwron')).rejects.toThrow();
    const res = await fetch(`${w.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
  });

  it('lists survey workflows as tools (not chats) and runs them: text, file and image results', async () => {
    const user = await signUpUser(w.t);
    await user.client.patch('/api/account/profile', { language: 'en' });
    const key = await newKey(user.client);
    const client = await connect(key);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'customer_feedback_to_csv',
          'weekly_kpi_chart',
          'list_workflows',
          'get_balance',
          'get_run',
        ]),
      );
      expect(names).not.toContain('market_research_report');
      const csvTool = tools.find((t) => t.name === 'customer_feedback_to_csv')!;
      expect(csvTool.description).toContain('1 credit per run.');
      expect(csvTool.inputSchema).toMatchObject({
        type: 'object',
        required: ['name', 'score', 'channel', 'comments'],
      });

      const csv = (await client.callTool({
        name: 'customer_feedback_to_csv',
        arguments: { name: 'ACME', score: 9, channel: 'Google', liked: ['Price'], comments: 'More demos' },
      })) as CallToolResult;
      expect(csv.isError).toBeFalsy();
      const link = csv.content.find((c) => c.type === 'resource_link');
      expect(link).toBeDefined();
      const file = await fetch(link!.type === 'resource_link' ? link!.uri : '', {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(file.status).toBe(200);
      const fetched = await file.text();
      expect(fetched).toContain('ACME');
      // The same file as an MCP resource, through the SDK client: no second HTTP client needed.
      const uri = link!.type === 'resource_link' ? link!.uri : '';
      const read = await client.readResource({ uri });
      expect(read.contents).toEqual([{ uri, mimeType: expect.stringMatching(/^text\/csv/), text: fetched }]);

      const chart = (await client.callTool({
        name: 'weekly_kpi_chart',
        arguments: { visits: 12, leads: 30, sales: 4, tickets: 7 },
      })) as CallToolResult;
      expect(chart.isError).toBeFalsy();
      expect(chart.content.some((c) => c.type === 'image' && c.mimeType === 'image/png')).toBe(true);

      const balance = (await client.callTool({ name: 'get_balance', arguments: {} })) as CallToolResult;
      expect(JSON.parse(texts(balance))).toMatchObject({ spentThisMonth: 2 });
      expect(await balanceOf(w, user.id)).toBe(3);
      const origins = await w.t.database.db
        .selectDistinct({ origin: workflowExecutions.origin })
        .from(workflowExecutions)
        .where(eq(workflowExecutions.userId, user.id));
      expect(origins).toEqual([{ origin: 'mcp' }]);

      const failed = (await client.callTool({
        name: 'inventory_sync_failure_demo',
        arguments: { warehouse: 'Madrid', sku: 'X-1' },
      })) as CallToolResult;
      expect(failed.isError).toBe(true);
      expect(texts(failed)).toMatch(/failed/i);

      const bad = (await client.callTool({
        name: 'weekly_kpi_chart',
        arguments: { visits: 'many' },
      })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(texts(bad)).toContain('VALIDATION_ERROR');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('sends the workflow progress as notifications, and refuses a run it cannot pay as a tool error', async () => {
    const wf = await addWorkflow(w, { name: { es: 'Progreso', en: 'Progress probe' } });
    const pricey = await addWorkflow(w, { name: { es: 'Caro', en: 'Pricey probe' }, creditsPerExecution: 6 });
    const user = await signUpUser(w.t);
    const key = await newKey(user.client);
    const client = await connect(key);
    try {
      w.service.handle(() => ({ status: 202, body: { accepted: true } }));
      const progress: string[] = [];
      const pending = client.callTool({ name: 'progress_probe', arguments: { q1: 'Ana' } }, undefined, {
        onprogress: (p) => {
          if (p.message) progress.push(p.message);
        },
        timeout: 30_000,
      });
      const call = await vi.waitFor(
        () => {
          const made = w.service.calls.find((c) => c.body.workflow_id === wf.id);
          if (!made) throw new Error('the workflow has not been called yet');
          return made;
        },
        { timeout: 20_000 },
      );
      const token = { execution_id: call.body.execution_id, secret_token: call.body.secret_token };
      expect(
        (await postResult(w, { ...token, status: 'running', output_data: { message: 'Halfway there' } }))
          .status,
      ).toBe(200);
      await vi.waitFor(() => expect(progress).not.toHaveLength(0), { timeout: 20_000 });
      expect((await postResult(w, { ...token, status: 'completed', output_data: 'All done' })).status).toBe(
        200,
      );
      const result = (await pending) as CallToolResult;
      expect(progress).toEqual(['Halfway there']);
      expect(texts(result)).toBe('All done');

      const refused = (await client.callTool({
        name: 'pricey_probe',
        arguments: { q1: 'x' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(texts(refused)).toContain('INSUFFICIENT_CREDITS');
      expect(await balanceOf(w, user.id)).toBe(4);
      expect(pricey.id).toBeDefined();
    } finally {
      await client.close();
    }
  }, 60_000);

  it("describes each workflow tool with its price, success rate and typical duration, in the owner's language", async () => {
    const known = await addWorkflow(w, { name: { es: 'Con historia', en: 'Seasoned probe' } });
    const fresh = await addWorkflow(w, { name: { es: 'Nuevo', en: 'Fresh probe' }, creditsPerExecution: 2 });
    // 30 days of history as the health job folds it (decision 145): 19 completed in 1-2 minutes, 1 failed.
    const durations = DURATION_BUCKETS_MS.map(() => 0).concat(0);
    durations[DURATION_BUCKETS_MS.indexOf(120_000)] = 19;
    await w.t.database.db.insert(workflowHealthDays).values({
      workflowId: known.id,
      day: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10),
      completed: 19,
      failed: 1,
      durations,
    });
    const user = await signUpUser(w.t);
    const description = async (language: 'es' | 'en', tool: string) => {
      await user.client.patch('/api/account/profile', { language });
      const client = await connect(await newKey(user.client));
      try {
        return (await client.listTools()).tools.find((t) => t.name === tool)?.description;
      } finally {
        await client.close();
      }
    };
    expect(await description('en', 'seasoned_probe')).toContain(
      '1 credit per run. Succeeds 95% of the time and usually takes about 2 min (last 30 days).',
    );
    expect(await description('es', 'seasoned_probe')).toContain(
      '1 crédito por ejecución. Sale bien el 95 % de las veces y suele tardar unos 2 min (últimos 30 días).',
    );
    expect(await description('en', 'fresh_probe')).toContain(
      '2 credits per run. Too few runs in the last 30 days to state its success rate and typical duration.',
    );
    expect(await description('es', 'fresh_probe')).toContain('2 créditos por ejecución. Aún tiene pocas');
    expect(fresh.id).toBeDefined();
  });

  it('tells open streams when the tool list changes (tools/list_changed), and the next tools/list follows', async () => {
    const user = await signUpUser(w.t);
    const key = await newKey(user.client);
    const { client, streamOpen } = await connectWatching(key);
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    let changes = 0;
    let notified: () => void = () => undefined;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changes += 1;
      notified();
    });
    const nextChange = () => new Promise<void>((resolve) => (notified = resolve));
    try {
      await streamOpen;
      const before = (await client.listTools()).tools.map((t) => t.name);
      expect(before).not.toContain('stream_probe');

      // An admin publishes a workflow through the admin API.
      let change = nextChange();
      const created = await w.admin.post('/api/admin/workflows', {
        userId: w.adminId,
        name: { es: 'Sonda', en: 'Stream probe' },
        description: { es: 'Prueba', en: 'Probe' },
        category: { es: 'Productividad', en: 'Productivity' },
        webhookUrl: `${w.service.url}/hook`,
        isPublic: true,
        interactionType: 'survey',
        surveyQuestions: [{ id: 'q1', question: { es: '¿Nombre?', en: 'Name?' }, type: 'text', options: [] }],
      });
      expect(created.statusCode, created.body).toBe(201);
      await change;
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('stream_probe');

      // Taking it down is a change too.
      change = nextChange();
      const id = created.json<{ id: string }>().id;
      expect((await w.admin.patch(`/api/admin/workflows/${id}`, { isActive: false })).statusCode).toBe(200);
      await change;
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('stream_probe');
      expect(changes).toBeGreaterThanOrEqual(2);
    } finally {
      await client.close();
    }
  }, 60_000);

  it(`holds at most ${MCP_STREAMS_PER_KEY} open streams per key, and refuses more in the reader's language`, async () => {
    const user = await signUpUser(w.t);
    await user.client.patch('/api/account/profile', { language: 'es' });
    const key = await newKey(user.client);
    const other = await newKey((await signUpUser(w.t)).client);
    const aborts: AbortController[] = [];
    try {
      for (let i = 0; i < MCP_STREAMS_PER_KEY; i += 1) {
        const abort = new AbortController();
        aborts.push(abort);
        const res = await openStream(key, abort.signal);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toContain('text/event-stream');
        // Written by the SDK, the answer still carries the headers every answer gets.
        expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      }
      const refused = await fetch(`${w.baseUrl}/mcp`, {
        headers: {
          authorization: `Bearer ${key}`,
          accept: 'text/event-stream',
          'accept-language': 'es',
        },
      });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({
        code: 'CONFLICT',
        error: `Esta clave de API ya tiene ${MCP_STREAMS_PER_KEY} conexiones MCP abiertas; cierra una antes`,
      });
      // Another key is not affected; a closed stream frees its place.
      const abort = new AbortController();
      aborts.push(abort);
      expect((await openStream(other, abort.signal)).status).toBe(200);
      aborts[0]!.abort();
      const again = await vi.waitFor(
        async () => {
          const opened = await openStream(key);
          expect(opened.status).toBe(200);
          return opened;
        },
        { timeout: 20_000 },
      );
      await again.body?.cancel();
    } finally {
      for (const a of aborts) a.abort();
    }
  });
});

describe('MCP refusals an agent can read', () => {
  /** A raw POST /mcp with the headers the transport wants. */
  const post = (key: string, body: unknown) =>
    fetch(`${w.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(body),
    });

  it("refuses a JSON-RPC batch as a whole, in the key owner's language, and runs nothing in it", async () => {
    const user = await signUpUser(w.t);
    await user.client.patch('/api/account/profile', { language: 'es' });
    const key = await newKey(user.client);
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'weekly_kpi_chart', arguments: { visits: 1, leads: 2, sales: 3, tickets: 4 } },
    });
    const res = await post(
      key,
      Array.from({ length: 3 }, (_, i) => call(i + 1)),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Envía un mensaje JSON-RPC por petición: no se aceptan lotes' },
    });
    expect(await balanceOf(w, user.id)).toBe(5);
    // One message alone is served.
    const single = await post(key, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(single.status).toBe(200);
  });

  it("answers get_run with an id that is not a run id as a tool error, in the caller's language", async () => {
    const user = await signUpUser(w.t);
    await user.client.patch('/api/account/profile', { language: 'en' });
    const client = await connect(await newKey(user.client));
    try {
      for (const runId of ['not-a-uuid', "1' or '1'='1", 42, undefined]) {
        const result = (await client.callTool({
          name: 'get_run',
          arguments: runId === undefined ? {} : { runId },
        })) as CallToolResult;
        expect(result.isError).toBe(true);
        expect(texts(result)).toBe('runId must be the id of a run (a UUID such as a workflow tool returns).');
        // The same for the other tools that take an id.
        const saved = (await client.callTool({
          name: 'run_saved_input',
          arguments: runId === undefined ? {} : { savedInputId: runId },
        })) as CallToolResult;
        expect(saved.isError).toBe(true);
        expect(texts(saved)).toMatch(/^savedInputId must be the id of saved answers/);
      }
      expect(await balanceOf(w, user.id)).toBe(5);
      await user.client.patch('/api/account/profile', { language: 'es' });
      const spanish = await connect(await newKey(user.client));
      try {
        const result = (await spanish.callTool({
          name: 'get_run',
          arguments: { runId: 'x' },
        })) as CallToolResult;
        expect(texts(result)).toMatch(/^runId debe ser el id de una ejecución/);
        const unknown = (await spanish.callTool({ name: 'no_such_tool', arguments: {} })) as CallToolResult;
        expect(unknown.isError).toBe(true);
        expect(texts(unknown)).toMatch(/^No hay ninguna herramienta llamada no_such_tool/);
      } finally {
        await spanish.close();
      }
    } finally {
      await client.close();
    }
  });

  it('turns an unexpected failure into a generic tool error with the request id, never its text', async () => {
    const user = await signUpUser(w.t);
    await user.client.patch('/api/account/profile', { language: 'en' });
    const ids: string[] = [];
    const client = new Client({ name: 'flujo-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${w.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${await newKey(user.client)}` } },
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          const id = res.headers.get('x-request-id');
          if (init?.method === 'POST' && id) ids.push(id);
          return res;
        },
      }),
    );
    failLookups.on = true;
    try {
      const result = (await client.callTool({
        name: 'get_run',
        arguments: { runId: '6f1c2f4e-8d4b-4c7a-9a53-2b1e4f0c9d11' },
      })) as CallToolResult;
      expect(result.isError).toBe(true);
      const said = texts(result);
      expect(said).toBe(
        `Something went wrong on our side. Try again; if it happens again, quote the request id ${ids.at(-1)}.`,
      );
      expect(said).not.toMatch(/select|workflow_executions/i);
      expect(said).not.toContain(user.id);
    } finally {
      failLookups.on = false;
      await client.close();
    }
  });
});

describe('run results as MCP resources', () => {
  it("reads only the caller's own results, and refuses others in the caller's language", async () => {
    const owner = await signUpUser(w.t);
    const ownerClient = await connect(await newKey(owner.client));
    const stranger = await signUpUser(w.t);
    await stranger.client.patch('/api/account/profile', { language: 'es' });
    const strangerClient = await connect(await newKey(stranger.client));
    try {
      const csv = (await ownerClient.callTool({
        name: 'customer_feedback_to_csv',
        arguments: { name: 'ACME', score: 9, channel: 'Google', liked: ['Price'], comments: 'More demos' },
      })) as CallToolResult;
      const link = csv.content.find((c) => c.type === 'resource_link');
      const uri = link?.type === 'resource_link' ? link.uri : '';
      expect((await ownerClient.readResource({ uri })).contents).toHaveLength(1);

      const refusals = [
        uri,
        uri.replace(/runs\/[^/]+/, `runs/${crypto.randomUUID()}`),
        `${w.baseUrl}/api/v1/runs/1' or 1=1/result`,
        'file:///etc/passwd',
      ];
      for (const other of refusals) {
        const err = await strangerClient.readResource({ uri: other }).catch((e: unknown) => e);
        expect(err, other).toBeInstanceOf(McpError);
        expect((err as McpError).code).toBe(-32002);
        expect((err as McpError).message).not.toMatch(/select|where|\$1/i);
      }
      const notYours = await strangerClient.readResource({ uri }).catch((e: unknown) => e as McpError);
      expect((notYours as McpError).message).toContain('Resultado no encontrado');
      expect((await strangerClient.listResources()).resources).toEqual([]);
    } finally {
      await ownerClient.close();
      await strangerClient.close();
    }
  }, 30_000);
});

describe('chat workflows as MCP tools', () => {
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const textOf = (result: CallToolResult) =>
    result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

  it('talks a chat through with start_conversation and send_message, charged once at the first message, and answers its result', async () => {
    const workflow = await addChatWorkflow(w, { creditsPerExecution: 2 });
    const user = await signUpUser(w.t);
    await user.client.patch('/api/account/profile', { language: 'en' });
    const client = await connect(await newKey(user.client));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['start_conversation', 'send_message']),
      );
      const listed = JSON.parse(textOf(await call(client, 'list_workflows', {}))) as { id: string }[];
      expect(listed.map((l) => l.id)).toContain(workflow.id);

      const started = await call(client, 'start_conversation', { workflowId: workflow.id });
      expect(started.isError).toBeFalsy();
      expect(textOf(started)).toBe('Hi! What are we celebrating?');
      const { conversationId } = started.structuredContent as { conversationId: string };
      expect(started.structuredContent).toMatchObject({ creditsUsed: 0 });
      expect(await balanceOf(w, user.id)).toBe(5);

      const first = await call(client, 'send_message', { conversationId, text: 'A birthday' });
      expect(textOf(first)).toBe('Got it. Whose birthday is it?');
      expect(first.structuredContent).toMatchObject({ done: false, remaining: 39 });
      expect(await balanceOf(w, user.id)).toBe(3);
      await call(client, 'send_message', { conversationId, text: 'My sister Ana' });

      w.service.handle(() => ({ status: 200, body: { status: 'completed', output_data: 'Party planned' } }));
      const called = w.service.callFor(conversationId);
      const last = await call(client, 'send_message', { conversationId, text: 'About 20' });
      expect(last.isError).toBeFalsy();
      expect(textOf(last)).toContain('3. About 20');
      expect(textOf(last)).toContain('Party planned');
      expect(last.structuredContent).toMatchObject({ done: true, status: 'completed', creditsUsed: 2 });
      expect((await called).body.responses).toHaveLength(3);
      expect(await balanceOf(w, user.id)).toBe(3);

      // The conversation is over: a further message is the tool's refusal, and nothing more is charged.
      const after = await call(client, 'send_message', { conversationId, text: 'One more thing' });
      expect(after.isError).toBe(true);
      expect(textOf(after)).toMatch(/^CONFLICT: /);
      expect(await balanceOf(w, user.id)).toBe(3);
    } finally {
      await client.close();
    }
  });

  it("refuses bad conversation input as tool errors in the owner's language, charging nothing", async () => {
    const survey = await addWorkflow(w);
    const chat = await addChatWorkflow(w);
    const user = await signUpUser(w.t);
    await user.client.patch('/api/account/profile', { language: 'es' });
    const client = await connect(await newKey(user.client));
    try {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        [
          'start_conversation',
          { workflowId: "1' or 1=1" },
          /^workflowId debe ser el id de un workflow de chat/,
        ],
        ['start_conversation', { workflowId: survey.id }, /^Este workflow no es un chat/],
        ['start_conversation', { workflowId: crypto.randomUUID() }, /^NOT_FOUND: /],
        ['send_message', { conversationId: 'nope', text: 'hola' }, /^conversationId debe ser el id/],
        ['send_message', { conversationId: crypto.randomUUID(), text: '' }, /^conversationId debe ser el id/],
        ['send_message', { conversationId: crypto.randomUUID(), text: 'hola' }, /^NOT_FOUND: /],
      ];
      for (const [name, args, expected] of cases) {
        const result = await call(client, name, args);
        expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
        expect(textOf(result)).toMatch(expected);
        expect(textOf(result)).not.toMatch(/select|where|\$1/i);
      }
      expect(await balanceOf(w, user.id)).toBe(5);
      // Someone else's conversation is not found either.
      const other = await signUpUser(w.t);
      const otherClient = await connect(await newKey(other.client));
      try {
        const { conversationId } = (await call(otherClient, 'start_conversation', { workflowId: chat.id }))
          .structuredContent as { conversationId: string };
        const result = await call(client, 'send_message', { conversationId, text: 'hola' });
        expect(textOf(result)).toMatch(/^NOT_FOUND: /);
      } finally {
        await otherClient.close();
      }
    } finally {
      await client.close();
    }
  });
});

describe('what an MCP chat costs, and when (decision 164)', () => {
  const call = async (client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const start = async (client: Client, workflowId: string) => {
    const started = await call(client, 'start_conversation', { workflowId });
    expect(started.isError, texts(started)).toBeFalsy();
    return (started.structuredContent as { conversationId: string }).conversationId;
  };
  const runOf = async (id: string) =>
    (await w.t.database.db.select().from(workflowExecutions).where(eq(workflowExecutions.id, id)))[0]!;

  it('refuses a start or a first message the balance or the key limit does not cover, as tool errors in the owner language', async () => {
    const chat = await addChatWorkflow(w, { creditsPerExecution: 2 });
    const pricey = await addChatWorkflow(w, { creditsPerExecution: 6 });
    const user = await signUpUser(w.t);
    await user.client.patch('/api/account/profile', { language: 'es' });
    const capped = (
      await user.client.post('/api/account/api-keys', { name: 'capped', monthlyCreditLimit: 3 })
    ).json<TApiKeyCreated>().key;
    const client = await connect(capped);
    try {
      const tooDear = await call(client, 'start_conversation', { workflowId: pricey.id });
      expect(tooDear.isError).toBe(true);
      expect(texts(tooDear)).toMatch(/^INSUFFICIENT_CREDITS: .*crédito/i);

      const a = await start(client, chat.id);
      const b = await start(client, chat.id);
      expect(await balanceOf(w, user.id)).toBe(5);
      expect(
        (await call(client, 'send_message', { conversationId: a, text: 'Un cumpleaños' })).isError,
      ).toBeFalsy();
      expect(await balanceOf(w, user.id)).toBe(3);

      // The key's month has 1 credit left: the second conversation's first message is refused, nothing kept.
      const limited = await call(client, 'send_message', { conversationId: b, text: 'Una boda' });
      expect(limited.isError).toBe(true);
      expect(texts(limited)).toMatch(/^SPENDING_LIMIT: /);
      expect(await runOf(b)).toMatchObject({ status: 'pending', creditsUsed: 0, chatMessageCount: 0 });
      expect(await balanceOf(w, user.id)).toBe(3);
      const startLimited = await call(client, 'start_conversation', { workflowId: chat.id });
      expect(texts(startLimited)).toMatch(/^SPENDING_LIMIT: /);
    } finally {
      await client.close();
    }

    // Another key without a limit: its first message is refused only once the balance no longer covers it.
    const open = await connect(await newKey(user.client));
    try {
      const c = await start(open, chat.id);
      const d = await start(open, chat.id);
      expect((await call(open, 'send_message', { conversationId: c, text: 'Hola' })).isError).toBeFalsy();
      expect(await balanceOf(w, user.id)).toBe(1);
      const broke = await call(open, 'send_message', { conversationId: d, text: 'Hola' });
      expect(broke.isError).toBe(true);
      expect(texts(broke)).toMatch(/^INSUFFICIENT_CREDITS: /);
      expect(await runOf(d)).toMatchObject({ creditsUsed: 0, chatMessageCount: 0 });
      expect(await balanceOf(w, user.id)).toBe(1);
    } finally {
      await open.close();
    }
  });

  it('keeps the charge of a conversation left after its first message, and refunds one whose run fails', async () => {
    const chat = await addChatWorkflow(w, { creditsPerExecution: 2 });
    const user = await signUpUser(w.t);
    await user.client.patch('/api/account/profile', { language: 'en' });
    const client = await connect(await newKey(user.client));
    try {
      const left = await start(client, chat.id);
      const untouched = await start(client, chat.id);
      await call(client, 'send_message', { conversationId: left, text: 'A birthday' });
      expect(await balanceOf(w, user.id)).toBe(3);
      w.t.clock.advance(16 * 60_000);
      try {
        await expireOverdueRuns(w.t.deps);
      } finally {
        w.t.clock.reset();
      }
      expect(await runOf(left)).toMatchObject({ status: 'expired', creditsUsed: 2 });
      expect(await runOf(untouched)).toMatchObject({ status: 'expired', creditsUsed: 0 });
      expect(await balanceOf(w, user.id)).toBe(3);

      const failing = await start(client, chat.id);
      await call(client, 'send_message', { conversationId: failing, text: 'A birthday' });
      await call(client, 'send_message', { conversationId: failing, text: 'My sister Ana' });
      expect(await balanceOf(w, user.id)).toBe(1);
      w.service.handle(() => ({ status: 200, body: { status: 'failed', error_message: 'Out of cake' } }));
      const last = await call(client, 'send_message', { conversationId: failing, text: 'About 20' });
      expect(last.isError).toBe(true);
      expect(last.structuredContent).toMatchObject({ done: true });
      expect(texts(last)).toContain('Out of cake');
      expect(await runOf(failing)).toMatchObject({ status: 'failed' });
      expect(await balanceOf(w, user.id)).toBe(3);
    } finally {
      await client.close();
    }
  });
});

describe('MCP transport rules', () => {
  const initialize = (protocolVersion: string) => ({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });

  /** A POST /mcp through inject, which lets a test name any Host (fetch sends the URL's). */
  const inject = (key: string, headers: Record<string, string>, body: unknown = initialize('2025-11-25')) =>
    w.t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      payload: JSON.stringify(body),
    });

  it("refuses a foreign Host or Origin (DNS rebinding) with 403 in the reader's language, before the key is read", async () => {
    const user = await signUpUser(w.t);
    const key = await newKey(user.client);
    const own = new URL(w.baseUrl);

    const foreignHost = await inject(key, { host: 'evil.example.com', 'accept-language': 'es' });
    expect(foreignHost.statusCode).toBe(403);
    expect(foreignHost.json()).toMatchObject({
      code: 'FORBIDDEN',
      error: 'Este servidor MCP no responde bajo este nombre de host',
    });
    // The same refusal with no key at all: the key is not what decides.
    const keyless = await w.t.app.inject({
      method: 'GET',
      url: '/mcp',
      headers: { host: 'evil.example.com' },
    });
    expect(keyless.statusCode).toBe(403);

    const foreignOrigin = await inject(key, { host: own.host, origin: 'http://evil.example.com' });
    expect(foreignOrigin.statusCode).toBe(403);
    expect(foreignOrigin.json()).toMatchObject({
      code: 'FORBIDDEN',
      error: 'This MCP server does not answer pages of this origin',
    });
    // A loopback name with another port is still another origin.
    const otherPort = await inject(key, {
      host: own.host,
      origin: `http://127.0.0.1:${Number(own.port) + 1}`,
    });
    expect(otherPort.statusCode).toBe(403);

    // PUBLIC_URL's own origin, any loopback name for a loopback server, and no Origin at all are served.
    const served: Record<string, string>[] = [
      { host: own.host, origin: own.origin },
      { host: `localhost:${own.port}` },
      { host: `[::1]:${own.port}` },
    ];
    for (const headers of served) {
      const res = await inject(key, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
    }
  });

  it('negotiates the revisions 2025-06-18 and 2025-11-25, and refuses an unknown revision header', async () => {
    const user = await signUpUser(w.t);
    const key = await newKey(user.client);
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${w.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    /** The one JSON-RPC answer of a request, whether it came as JSON or as one server-sent event. */
    const answerOf = async (res: Response) => {
      const body = await res.text();
      const data = body.startsWith('{') ? body : (/^data: (.*)$/m.exec(body)?.[1] ?? 'null');
      return JSON.parse(data) as { result?: { protocolVersion?: string; tools?: unknown[] } };
    };
    for (const version of ['2025-06-18', '2025-11-25']) {
      const init = await post(initialize(version));
      expect(init.status).toBe(200);
      expect((await answerOf(init)).result?.protocolVersion).toBe(version);
      const list = await post(
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { 'mcp-protocol-version': version },
      );
      expect(list.status).toBe(200);
      expect((await answerOf(list)).result?.tools?.length).toBeGreaterThan(0);
    }
    // A revision the server does not speak: it offers its latest instead.
    const unknown = await post(initialize('2099-01-01'));
    expect((await answerOf(unknown)).result?.protocolVersion).toBe('2025-11-25');
    const badHeader = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-protocol-version': '1999-01-01' },
    );
    expect(badHeader.status).toBe(400);
  });
});

describe('MCP streams at shutdown', () => {
  it('are ended when the server closes, so they do not hold the close', async () => {
    const t = await buildTestApp();
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      const user = await signUpUser(t);
      const key = (await user.client.post('/api/account/api-keys', { name: 'x' })).json<TApiKeyCreated>().key;
      const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
        headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
      });
      expect(res.status).toBe(200);
      // Counted as an open event stream while it lasts.
      const openStreams = async () =>
        (await t.deps.metrics.registry.getSingleMetric('flujo_event_streams_open')!.get()).values.find(
          (v) => v.labels.route === '/mcp',
        )?.value;
      expect(await openStreams()).toBe(1);
      const reader = res.body!.getReader();
      const ended = (async () => {
        for (;;) if ((await reader.read()).done) return true;
      })();
      await t.app.close();
      expect(await ended).toBe(true);
      expect(await openStreams()).toBe(0);
    } finally {
      await t.close().catch(() => undefined);
    }
  }, 30_000);
});
