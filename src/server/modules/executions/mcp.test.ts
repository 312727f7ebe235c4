import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TApiKeyCreated } from '#shared/contract/api-keys.js';
import type { TestClient } from '#server/test/client.js';
import { buildTestApp } from '#server/test/harness.js';
import { MCP_STREAMS_PER_KEY } from './mcp-streams.js';
import {
  addWorkflow,
  balanceOf,
  postResult,
  signUpUser,
  startRunsWorld,
  type RunsWorld,
} from './testing/fixtures.js';

/*
 * The MCP server through the SDK's own client over HTTP, against the app listening on a port with the demo
 * workflows (their services answer like real ones) and a test workflow service for progress.
 */

let w: RunsWorld;
beforeAll(async () => {
  w = await startRunsWorld({ DEMO_WORKFLOWS: 'true' });
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
      expect(await file.text()).toContain('ACME');

      const chart = (await client.callTool({
        name: 'weekly_kpi_chart',
        arguments: { visits: 12, leads: 30, sales: 4, tickets: 7 },
      })) as CallToolResult;
      expect(chart.isError).toBeFalsy();
      expect(chart.content.some((c) => c.type === 'image' && c.mimeType === 'image/png')).toBe(true);

      const balance = (await client.callTool({ name: 'get_balance', arguments: {} })) as CallToolResult;
      expect(JSON.parse(texts(balance))).toMatchObject({ spentThisMonth: 2 });
      expect(await balanceOf(w, user.id)).toBe(3);

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
      let call = w.service.calls.find((c) => c.body.workflow_id === wf.id);
      while (!call) {
        await new Promise((r) => setTimeout(r, 50));
        call = w.service.calls.find((c) => c.body.workflow_id === wf.id);
      }
      const token = { execution_id: call.body.execution_id, secret_token: call.body.secret_token };
      expect(
        (await postResult(w, { ...token, status: 'running', output_data: { message: 'Halfway there' } }))
          .status,
      ).toBe(200);
      while (progress.length === 0) await new Promise((r) => setTimeout(r, 50));
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
      let again = await openStream(key);
      while (again.status === 409) {
        await new Promise((r) => setTimeout(r, 50));
        again = await openStream(key);
      }
      expect(again.status).toBe(200);
      await again.body?.cancel();
    } finally {
      for (const a of aborts) a.abort();
    }
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
