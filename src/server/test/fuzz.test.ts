import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowExecutions } from '../db/schema.js';
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
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
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
type Persona = 'anonymous' | 'user' | 'admin';
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
let clients: Record<Exclude<Persona, 'anonymous'>, TestClient>;

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
  known = { ids: [workflow.id, runId, bystander.id, reviewId, ...configIds] };
  clients = { user: user.client, admin };
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
  const client = req.persona === 'anonymous' ? undefined : clients[req.persona];
  return t.app.inject({
    method,
    url: req.url,
    query: req.query,
    headers: {
      origin: t.origin,
      ...(client?.cookie ? { cookie: client.cookie } : {}),
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
