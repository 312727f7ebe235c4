import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_STREAM_ROUTES, requestOpenStream } from './open-stream.js';
import { adminConfig, savedInputs, sessions, workflowExecutions } from '../db/schema.js';
import { signInAdmin, signUpUser, type TestClient } from './client.js';
import { buildTestApp, TEST_ADMIN, type TestApp } from './harness.js';
import {
  invalidValue,
  validValue,
  wrongValue,
  type JsonSchema,
  type KnownIds,
} from './openapi-arbitraries.js';
import { addSurveyWorkflow, testAdminId } from './test-data.js';

/**
 * Fuzzing from the OpenAPI document: for every operation, requests with valid and broken bodies, path and
 * query parameters, as a visitor, a user and an admin. Whatever comes in: never a 5xx (503 NOT_CONFIGURED
 * aside, which is the designed answer of an unconfigured provider), every error is `{ error, code }`, and
 * every success has a declared response schema for its status (the zod serializer refuses, as a 500, any
 * answer that does not match it, so "no 5xx" also proves the successes match). A failure prints the seed and
 * the shrunk request; replay with FUZZ_SEED=<seed>. FUZZ_TRACE=1 names each operation as it starts;
 * FUZZ_ONLY=<regex> limits the run to matching operations ("GET /api/admin/audit").
 */
// 100 cases an operation, a new seed each run: CI's three runs try 300 different requests on every operation.
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
}
/**
 * The cookie personas, and on the management API (/api/v1/admin/) the two key identities: the admin's
 * admin-scope key and the user's own key, sent as `Authorization: Bearer`.
 */
type Persona = 'anonymous' | 'user' | 'admin' | 'adminKey' | 'userKey';
interface FuzzRequest {
  persona: Persona;
  url: string;
  query: Record<string, string>;
  payload?: string;
  contentType?: string;
}

const dataDir = mkdtempSync(join(tmpdir(), 'flujo-fuzz-'));
let t: TestApp;
let doc: { paths: Record<string, Partial<Record<Lowercase<Method>, Operation>>> };
let known: KnownIds;
let clients: Record<'user' | 'admin', TestClient>;
let keys: Record<'adminKey' | 'userKey', string>;

beforeAll(async () => {
  t = await buildTestApp({ DATA_DIR: dataDir });
  doc = t.app.swagger() as typeof doc;
  const { db } = t.database;
  const admin = await signInAdmin(t, TEST_ADMIN.email, TEST_ADMIN.password);
  const adminId = await testAdminId(t);
  const user = await signUpUser(t);
  const bystander = await signUpUser(t);
  const workflow = await addSurveyWorkflow(db, adminId);
  const started = await user.client.post('/api/executions/start', { workflowId: workflow.id });
  const runId = (started.json() as { executionId: string }).executionId;
  // Finished, so fuzzed completions and event streams on it answer at once instead of waiting on a webhook.
  await db.update(workflowExecutions).set({ status: 'completed' }).where(eq(workflowExecutions.id, runId));
  const configIds = ((await admin.get('/api/admin/config')).json() as Array<{ id: string }>).map((c) => c.id);
  // Ids that exist, so some requests get past "not found". The admin's and user's own ids are left out, so
  // a fuzzed suspension or demotion cannot end the sessions the rest of the run relies on.
  // A review, so that fuzzed moderation and edits reach one.
  const review = await user.client.request('PUT', `/api/workflows/${workflow.id}/reviews/mine`, {
    rating: 4,
  });
  const reviewId = (review.json() as { review: { id: string } }).review.id;
  // Another person's session, which no fuzzed sign-out of a device may end (404 for everyone).
  const [bystanderSession] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userId, bystander.id));
  // Saved answers and a schedule of the user, so the schedule routes are reached past "not found".
  const [saved] = await db
    .insert(savedInputs)
    .values({ userId: user.id, workflowId: workflow.id, name: 'fuzz', answers: { q1: 'x' } })
    .returning({ id: savedInputs.id });
  const [spare] = await db
    .insert(savedInputs)
    .values({ userId: user.id, workflowId: workflow.id, name: 'fuzz spare', answers: { q1: 'y' } })
    .returning({ id: savedInputs.id });
  const schedule = await user.client.post('/api/schedules', {
    savedInputId: saved!.id,
    cron: '0 9 * * *',
    timezone: 'UTC',
  });
  const scheduleId = (schedule.json() as { id: string }).id;
  // A webhook endpoint and one of its deliveries, so fuzzed tests, logs and redeliveries reach them.
  const webhook = await user.client.post('/api/account/webhooks', {
    url: 'https://example.com/fuzz',
    events: ['run.completed'],
  });
  const webhookId = (webhook.json() as { id: string }).id;
  const test = await user.client.post(`/api/account/webhooks/${webhookId}/test`);
  const deliveryId = (test.json() as { deliveryId: string }).deliveryId;
  known = {
    ids: [
      workflow.id,
      runId,
      bystander.id,
      reviewId,
      bystanderSession!.id,
      webhookId,
      deliveryId,
      ...configIds,
      saved!.id,
      spare!.id,
      scheduleId,
    ],
  };
  clients = { user: user.client, admin };
  const keyOf = async (client: TestClient, scope: 'admin' | 'user') =>
    ((await client.post('/api/account/api-keys', { name: `fuzz ${scope}`, scope })).json() as { key: string })
      .key;
  keys = { adminKey: await keyOf(admin, 'admin'), userKey: await keyOf(user.client, 'user') };
  // One admin key sends every management-API case within a minute: far more than the default per-key limit,
  // which would answer 429 before the route is reached. The limit itself is api-rate-limit.test.ts's.
  await db.update(adminConfig).set({ value: 100_000 }).where(eq(adminConfig.key, 'api_requests_per_minute'));
}, 180_000);
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const asQueryString = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

const RAW_BODIES = fc.record({
  payload: fc.constantFrom(
    '{',
    'null',
    '[]',
    '"x"',
    '1e999',
    '{"a":1}{"b":2}',
    '',
    '\u0000',
    '{"a":'.repeat(500),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
    'multipart/form-data; boundary=x',
  ),
});

function requestArbitrary(path: string, method: Method, op: Operation): fc.Arbitrary<FuzzRequest> {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;

  const pathValues = fc.tuple(
    ...pathParams.map((p) =>
      fc.oneof(
        { weight: 4, arbitrary: validValue(p.schema ?? {}, known) },
        { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
      ),
    ),
  );
  const queryValues = fc.tuple(
    ...queryParams.map((p) =>
      fc.option(
        fc.oneof(
          { weight: 3, arbitrary: validValue(p.schema ?? {}, known) },
          { weight: 1, arbitrary: wrongValue },
        ),
      ),
    ),
  );
  const body: fc.Arbitrary<{ payload?: string; contentType?: string }> = bodySchema
    ? fc.oneof(
        { weight: 4, arbitrary: validValue(bodySchema, known).map((v) => ({ payload: JSON.stringify(v) })) },
        {
          weight: 3,
          arbitrary: invalidValue(bodySchema, known).map((v) => ({ payload: JSON.stringify(v) })),
        },
        { weight: 1, arbitrary: RAW_BODIES },
      )
    : fc.oneof(
        { weight: 4, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => ({ payload: JSON.stringify(v) })) },
        { weight: 1, arbitrary: RAW_BODIES },
      );
  // Signing out as a persona would end the session the other operations use.
  const persona =
    path === '/api/auth/signout'
      ? fc.constant<Persona>('anonymous')
      : path.startsWith('/api/v1/admin/')
        ? fc.oneof(
            { weight: 4, arbitrary: fc.constant<Persona>('adminKey') },
            { weight: 1, arbitrary: fc.constantFrom<Persona>('anonymous', 'userKey', 'admin') },
          )
        : fc.constantFrom<Persona>('anonymous', 'user', 'admin');

  return fc
    .record({ persona, pathValues, queryValues, body })
    .map(({ persona, pathValues, queryValues, body }) => {
      let url = path;
      pathParams.forEach((p, i) => {
        url = url.replace(`{${p.name}}`, encodeURIComponent(asQueryString(pathValues[i])));
      });
      const query: Record<string, string> = {};
      queryParams.forEach((p, i) => {
        const value = queryValues[i];
        if (value !== null && value !== undefined) query[p.name] = asQueryString(value);
      });
      const contentType = body.contentType ?? (body.payload !== undefined ? 'application/json' : undefined);
      return { persona, url, query, ...body, ...(contentType ? { contentType } : {}) };
    });
}

async function send(method: Method, req: FuzzRequest) {
  const client = req.persona === 'user' || req.persona === 'admin' ? clients[req.persona] : undefined;
  const key = req.persona === 'adminKey' || req.persona === 'userKey' ? keys[req.persona] : undefined;
  const path = req.url.split('?')[0]!;
  if (method === 'GET' && OPEN_STREAM_ROUTES.includes(path)) {
    const query = new URLSearchParams(req.query).toString();
    return requestOpenStream(t, `${req.url}${query ? `?${query}` : ''}`, {
      origin: t.origin,
      ...(client?.cookie ? { cookie: client.cookie } : {}),
    });
  }
  return t.app.inject({
    method,
    url: req.url,
    query: req.query,
    headers: {
      origin: t.origin,
      ...(client?.cookie ? { cookie: client.cookie } : {}),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(req.contentType ? { 'content-type': req.contentType } : {}),
    },
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
  });
}

const operationsOf = (d: typeof doc) =>
  Object.entries(d.paths).flatMap(([path, ops]) =>
    (Object.entries(ops) as Array<[Lowercase<Method>, Operation]>).map(([m, op]) => ({
      path,
      method: m.toUpperCase() as Method,
      op,
    })),
  );

describe('fuzzing every operation of the OpenAPI document', () => {
  it('never answers 5xx, always { error, code } for errors, only declared statuses for successes', async () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(30);
    let cases = 0;
    for (const { path, method, op } of operations) {
      if (process.env.FUZZ_ONLY && !new RegExp(process.env.FUZZ_ONLY).test(`${method} ${path}`)) continue;
      if (process.env.FUZZ_TRACE) console.error('FUZZ', method, path, new Date().toISOString());
      await fc.assert(
        fc.asyncProperty(requestArbitrary(path, method, op), async (req) => {
          cases += 1;
          const res = await send(method, req);
          const where = `${method} ${path} as ${req.persona} (${req.url} ${JSON.stringify(req.query)}): ${res.statusCode} ${res.body.slice(0, 200)}`;
          if (res.statusCode >= 500) {
            expect(res.statusCode, where).toBe(503);
            expect(res.json(), where).toMatchObject({ code: 'NOT_CONFIGURED' });
          }
          if (res.statusCode >= 400) {
            expect(res.json(), where).toEqual(
              expect.objectContaining({
                error: expect.any(String),
                code: expect.stringMatching(/^[A-Z_]+$/),
              }),
            );
          } else if (!String(res.headers['content-type']).startsWith('text/event-stream')) {
            // (An event stream has no JSON schema to declare; the OpenAPI document lists only its errors.)
            expect(Object.keys(op.responses ?? {}), where).toContain(String(res.statusCode));
          }
        }),
        { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: true },
      );
    }
    if (!process.env.FUZZ_ONLY) expect(cases).toBe(operations.length * RUNS);
    console.log(`fuzzing: ${cases} requests over ${operations.length} operations (${RUNS} each)`);
  }, 900_000);
});
