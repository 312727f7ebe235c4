import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ZApiKeyCreate, ZApiKeyCreated } from '#shared/contract/api-keys.js';
import { ZApiMe, ZApiRun, ZApiRunCreate, ZApiWorkflow } from '#shared/contract/public-api.js';
import { useTestApp } from '#server/test/harness.js';
import { listRoutes } from '#server/test/routes.js';
import { OPERATION_EXAMPLES } from './openapi-examples.js';
import type { OpenApiDocument } from './openapi-document.js';

// With the demo services, as the embedded database serves them out of the box.
const t = useTestApp({ DEMO_WORKFLOWS: 'true' });
const dir = mkdtempSync(join(tmpdir(), 'flujo-openapi-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function documentJson(): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer?: string }>;
}

/**
 * Redocly's recommended ruleset over the document, with the installed binary. Nothing may reach the network:
 * usage data is off, the update notice (a registry request) is suppressed, and any request that still went
 * out would go to a proxy that does not exist.
 */
function redoclyLint(file: string): { status: number | null; problems: LintProblem[]; stderr: string } {
  const run = spawnSync(
    join(process.cwd(), 'node_modules/.bin/redocly'),
    ['lint', '--extends=recommended', '--format=json', '--max-problems=1000', file],
    {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        CI: 'true',
        HTTP_PROXY: 'http://127.0.0.1:9',
        HTTPS_PROXY: 'http://127.0.0.1:9',
        NO_COLOR: '1',
      },
    },
  );
  const json = run.stdout.slice(run.stdout.indexOf('{'));
  const report = JSON.parse(json) as { problems: LintProblem[] };
  return { status: run.status, problems: report.problems, stderr: run.stderr };
}

describe('the OpenAPI document at /api/docs/json', () => {
  it("passes Redocly's recommended ruleset with no error", async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, await documentJson());
    const { status, problems, stderr } = redoclyLint(file);
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
    expect(errors, stderr).toEqual([]);
    expect(status).toBe(0);
    // Examples are checked against their schemas by the ruleset (a warning there, an error here).
    const badExamples = problems.filter((p) => p.ruleId === 'no-invalid-media-type-examples');
    expect(badExamples.map((p) => p.message)).toEqual([]);
  }, 150_000);

  it('gives every route an operation id, its security and a described answer', async () => {
    const doc = JSON.parse(await documentJson()) as OpenApiDocument;
    const ids: string[] = [];
    const ops = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ method, path, op })),
    );
    for (const { method, path, op } of ops) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]+$/);
      ids.push(op.operationId!);
      expect(op.security, where).toBeDefined();
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        expect(response.description, `${where} ${status}`).not.toMatch(/^(Default Response)?$/);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Every API route the app serves is documented (the web app's files, robots.txt and the sitemap, health
    // checks and metrics are not API).
    const documented = new Set(ops.map(({ method, path }) => `${method.toUpperCase()} ${path}`));
    const served = listRoutes(t.app)
      .filter((r) => !['/healthz', '/readyz', '/metrics', '/robots.txt', '/sitemap.xml'].includes(r.url))
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1')}`);
    // The OAuth authorization server's endpoints: their contract is the RFCs', and docs/api.md lists them.
    const hidden = [
      'DELETE /mcp',
      'GET /oauth/authorize',
      'GET /oauth/authorize/{uid}',
      'POST /oauth/token',
      'POST /oauth/register',
      'POST /oauth/revoke',
      'GET /oauth/jwks',
      'GET /.well-known/openid-configuration',
      'GET /.well-known/oauth-authorization-server',
    ];
    expect(served.filter((k) => !documented.has(k) && !hidden.includes(k))).toEqual([]);

    const schemes = doc.components?.securitySchemes ?? {};
    expect(Object.keys(schemes).sort()).toEqual(
      ['apiKey', 'runResultToken', 'sessionCookie', 'stripeSignature', 'webhookSignature'].sort(),
    );
    const securityOf = (method: string, path: string) => doc.paths?.[path]?.[method]?.security;
    expect(securityOf('post', '/api/v1/runs')).toEqual([{ apiKey: [] }]);
    expect(securityOf('post', '/mcp')).toEqual([{ apiKey: [] }]);
    expect(securityOf('get', '/api/account/api-keys')).toEqual([{ sessionCookie: [] }]);
    expect(securityOf('get', '/api/admin/stats')).toEqual([{ sessionCookie: [] }]);
    expect(securityOf('post', '/api/workflow-result')).toEqual([{ runResultToken: [] }]);
    expect(securityOf('post', '/api/payments/stripe/webhook')).toEqual([{ stripeSignature: [] }]);
    expect(securityOf('post', '/api/auth/signin')).toEqual([]);
    expect(securityOf('get', '/api/workflows/public')).toEqual([{}, { sessionCookie: [] }]);
    // The demo services take a signed webhook call, as any workflow service does, never a session.
    expect(securityOf('post', '/demo-hooks/{slug}')).toEqual([{ webhookSignature: [] }]);
  });

  it('names every field of the public API and the MCP server in camelCase (decision 137)', async () => {
    const doc = JSON.parse(await documentJson()) as OpenApiDocument;
    const schemas = doc.components?.schemas ?? {};
    const names = new Set<string>();
    const seen = new Set<unknown>();
    // Every property name a schema (and the schemas it refers to or nests) declares.
    const walk = (node: unknown): void => {
      if (!node || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const record = node as Record<string, unknown>;
      if (typeof record.$ref === 'string') walk(schemas[record.$ref.replace('#/components/schemas/', '')]);
      if (record.properties && typeof record.properties === 'object') {
        for (const name of Object.keys(record.properties)) names.add(name);
      }
      for (const [key, value] of Object.entries(record)) if (key !== 'example') walk(value);
    };
    const publicPaths = Object.entries(doc.paths ?? {}).filter(
      ([path]) => path.startsWith('/api/v1/') || path === '/mcp',
    );
    expect(publicPaths.length).toBeGreaterThan(5);
    for (const [, item] of publicPaths) walk(item);
    expect(names).toContain('resultUrl');
    // The JSON-RPC envelope's own names are one word each, so any underscore is a field of ours.
    expect([...names].filter((name) => !/^[a-z][A-Za-z0-9]*$/.test(name))).toEqual([]);
  });

  it("shows the public API's examples, each valid for the contract", async () => {
    const doc = JSON.parse(await documentJson()) as OpenApiDocument;
    const run = doc.paths?.['/api/v1/runs']?.post;
    expect(run?.requestBody?.content?.['application/json']?.example).toEqual(
      OPERATION_EXAMPLES.createRun!.request,
    );
    expect(run?.responses?.['201']?.content?.['application/json']?.example).toMatchObject({
      status: 'completed',
    });
    expect(doc.paths?.['/mcp']?.post?.responses?.['200']?.content?.['text/event-stream']?.example).toMatch(
      /^event: message\ndata: \{"jsonrpc":"2.0"/,
    );
    const e = OPERATION_EXAMPLES;
    expect(() => ZApiRunCreate.parse(e.createRun!.request)).not.toThrow();
    expect(() => ZApiRun.parse(e.createRun!.responses[201])).not.toThrow();
    expect(() => ZApiRun.parse(e.getRun!.responses[200])).not.toThrow();
    expect(() => ZApiWorkflow.parse(e.getWorkflow!.responses[200])).not.toThrow();
    expect(() => ZApiMe.parse(e.getMe!.responses[200])).not.toThrow();
    expect(() => ZApiKeyCreate.parse(e.createApiKey!.request)).not.toThrow();
    expect(() => ZApiKeyCreated.parse(e.createApiKey!.responses[201])).not.toThrow();
    for (const id of ['getMe', 'listWorkflows', 'getWorkflow', 'createRun', 'getRun']) {
      const op = Object.values(doc.paths ?? {})
        .flatMap((item) => Object.values(item))
        .find((o) => o.operationId === id);
      const answered = Object.values(op?.responses ?? {}).filter(
        (r) => r.content?.['application/json']?.example !== undefined,
      );
      expect(answered.length, id).toBeGreaterThan(0);
    }
  });
});
