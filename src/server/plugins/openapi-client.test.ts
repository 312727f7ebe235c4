import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '#server/test/harness.js';

/*
 * A script's view of the public API: types generated from the served OpenAPI document with openapi-typescript,
 * and a small typed program (openapi-fetch) that lists workflows, starts a run and reads it, compiled with
 * the TypeScript compiler. The same program must stop compiling when the document loses the runs route, and
 * a program that sends a wrong body must not compile, so the check can fail.
 */

const t = useTestApp();
// Inside the repository, so the program's `import 'openapi-fetch'` resolves to the pinned package.
const cacheDir = join(process.cwd(), 'node_modules/.cache');
mkdirSync(cacheDir, { recursive: true });
const dir = mkdtempSync(join(cacheDir, 'openapi-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROGRAM = `
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

type Status = 'pending' | 'running' | 'completed' | 'failed' | 'expired';

const client = createClient<paths>({
  baseUrl: 'https://flujo.example',
  headers: { authorization: 'Bearer flj_example' },
});

export async function nightly(): Promise<string> {
  const { data: list, error: listError } = await client.GET('/api/v1/workflows', {
    params: { query: { lang: 'en' } },
  });
  if (listError) return listError.code;
  const first = list.workflows.find((w) => w.interactionType === 'survey');
  if (!first) return 'nothing to run';
  const price: number = first.creditsPerExecution;

  const { data: run, error } = await client.POST('/api/v1/runs', {
    params: { header: { 'idempotency-key': 'nightly-2026-11-24' } },
    body: { workflowId: first.id, answers: { name: 'ACME', score: 9 }, wait: 30 },
  });
  if (error) return error.code;

  const { data: again } = await client.GET('/api/v1/runs/{id}', { params: { path: { id: run.id } } });
  const status: Status | undefined = again?.status;
  const file: string | null | undefined = again?.resultUrl;
  return [status, price, run.creditsUsed, file].join(' ');
}
`;

/** The same calls with a body the API does not take (the seconds to wait as words). */
const WRONG_BODY = PROGRAM.replace('wait: 30', "wait: 'thirty'");

async function typesFor(doc: OpenAPI3): Promise<string> {
  return astToString(await openapiTS(doc));
}

/** The compiler's errors for `program` against `types`, as "file(line): message". */
function compile(name: string, types: string, program: string): string[] {
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, 'api.ts'), types);
  writeFileSync(join(at, 'main.ts'), program);
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    skipLibCheck: true,
  };
  const program_ = ts.createProgram([join(at, 'main.ts')], options);
  return ts.getPreEmitDiagnostics(program_).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${d.file?.fileName.slice(at.length + 1) ?? '?'}(${line}): ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

describe('a typed client generated from the OpenAPI document', () => {
  it('compiles a program that lists workflows, starts a run and reads it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json<OpenAPI3>();
    const types = await typesFor(doc);
    expect(types).toContain('"/api/v1/runs"');
    expect(compile('good', types, PROGRAM)).toEqual([]);

    // The check bites: a wrong body, and the runs route gone from the document.
    const wrong = compile('wrong-body', types, WRONG_BODY);
    expect(wrong.join('\n')).toMatch(/main\.ts\(\d+\).*'string'.*'number'/);
    const withoutRuns = structuredClone(doc);
    delete withoutRuns.paths?.['/api/v1/runs'];
    const missing = compile('no-runs-route', await typesFor(withoutRuns), PROGRAM);
    expect(missing.join('\n')).toMatch(/main\.ts\(\d+\).*\/api\/v1\/runs/);
  }, 120_000);
});
