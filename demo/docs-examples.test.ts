import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { headerTokenFor } from '../src/server/modules/workflows/secrets.js';
import { flujoHeaderToken } from './hooks/verify.js';

// The examples builders copy from the docs must verify what the app really sends: a compact JSON body
// signed per Standard Webhooks (signed here with the standardwebhooks library, as an independent check).
const root = new URL('../', import.meta.url);
const secret = `whsec_${Buffer.alloc(32, 42).toString('base64')}`;
const body = JSON.stringify({
  workflow_id: '6f0f7c1e-2a4b-4c5d-8e9f-0a1b2c3d4e5f',
  execution_id: '7a0f7c1e-2a4b-4c5d-8e9f-0a1b2c3d4e5f',
  user_id: '8b0f7c1e-2a4b-4c5d-8e9f-0a1b2c3d4e5f',
  secret_token: 'run-token',
  responses: [
    { question: '¿Qué valoraste más?', answer: ['Precio', 'Rapidez "ya"'] },
    { question: 'Comments', answer: 'Ünïcode ✓ and \\ backslash\nnew line' },
  ],
  language: 'es',
  callback_url: 'https://flujo.example.com/api/workflow-result',
});

function signedHeaders(payload: string, key = secret): Record<string, string> {
  const now = new Date();
  return {
    'webhook-id': 'msg_test',
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(key).sign('msg_test', now, payload),
  };
}

describe('docs/examples/n8n-flujo-workflow.json', () => {
  const workflow = JSON.parse(
    readFileSync(new URL('docs/examples/n8n-flujo-workflow.json', root), 'utf8'),
  ) as {
    nodes: Array<{
      name: string;
      type: string;
      parameters: Record<string, unknown>;
      credentials?: Record<string, { name: string }>;
    }>;
    connections: Record<string, { main: Array<Array<{ node: string }>> }>;
  };
  const codeNode = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.code');
  const asShipped = String(codeNode?.parameters.jsCode);
  const withSecret = asShipped.replace('whsec_PASTE_THE_WORKFLOW_SIGNING_SECRET_HERE', secret);
  const runCodeNode = (headers: Record<string, string>, parsedBody: unknown, jsCode = withSecret) => {
    const input = { first: () => ({ json: { headers, body: parsedBody } }) };
    // Runs the example exactly as n8n would: the code as a function body with $input and require.
    const node = new Function('$input', 'require', jsCode) as (i: unknown, r: NodeJS.Require) => unknown;
    return node(input, createRequire(import.meta.url)) as Array<{
      json: { body: unknown; result: Record<string, unknown> };
    }>;
  };

  it('chains webhook -> code -> HTTP request posting to the callback_url', () => {
    expect(workflow.nodes.map((n) => n.type)).toEqual([
      'n8n-nodes-base.webhook',
      'n8n-nodes-base.code',
      'n8n-nodes-base.httpRequest',
    ]);
    expect(workflow.connections['Flujo webhook']?.main[0]?.[0]?.node).toBe(codeNode?.name);
    const http = workflow.nodes[2]?.parameters;
    expect(http?.url).toBe('={{ $json.body.callback_url }}');
    expect(http?.method).toBe('POST');
  });

  it("guards the webhook with Header Auth on X-Flujo-Token, which Flujo's fixed header value passes", () => {
    const webhook = workflow.nodes[0];
    expect(webhook?.parameters.authentication).toBe('headerAuth');
    expect(webhook?.credentials?.httpHeaderAuth?.name).toBeTruthy();
    // The README tells the builder which header and which value to put in that credential.
    const readme = readFileSync(new URL('docs/examples/README.md', root), 'utf8');
    expect(readme).toContain('**Name** `X-Flujo-Token`');
    expect(readme).toContain('Header token for n8n Header Auth (X-Flujo-Token)');
    // n8n's Header Auth compares the named header with the stored value; the value the admin copies is the
    // one Flujo sends on every call of the workflow.
    const stored = headerTokenFor(secret);
    const n8nHeaderAuth = (headers: Record<string, string>) => headers['x-flujo-token'] === stored;
    expect(n8nHeaderAuth({ ...signedHeaders(body), 'x-flujo-token': headerTokenFor(secret) })).toBe(true);
    expect(n8nHeaderAuth({ ...signedHeaders(body), 'x-flujo-token': 'run-token' })).toBe(false);
  });

  it('without a pasted secret relies on Header Auth alone and still builds the result', () => {
    const [item] = runCodeNode({}, JSON.parse(body), asShipped);
    expect(item?.json.result).toMatchObject({ secret_token: 'run-token', status: 'completed' });
  });

  it("accepts the app's signed call (n8n hands it the parsed body) and builds a contract result", () => {
    const [item] = runCodeNode(signedHeaders(body), JSON.parse(body));
    expect(item?.json.result).toMatchObject({
      execution_id: '7a0f7c1e-2a4b-4c5d-8e9f-0a1b2c3d4e5f',
      secret_token: 'run-token',
      status: 'completed',
      output_type: 'text',
    });
    expect(String((item?.json.result.output_data as { message: string }).message)).toContain(
      '¿Qué valoraste más?: Precio, Rapidez "ya"',
    );
  });

  it('stops on a wrong secret or a changed body', () => {
    const wrong = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    expect(() => runCodeNode(signedHeaders(body, wrong), JSON.parse(body))).toThrow(
      'Invalid Flujo signature',
    );
    const changed = { ...(JSON.parse(body) as object), secret_token: 'other' };
    expect(() => runCodeNode(signedHeaders(body), changed)).toThrow('Invalid Flujo signature');
  });
});

describe('docs/examples/n8n-flujo-file-workflow.json', () => {
  const workflow = JSON.parse(
    readFileSync(new URL('docs/examples/n8n-flujo-file-workflow.json', root), 'utf8'),
  ) as {
    nodes: Array<{ name: string; type: string; parameters: Record<string, unknown> }>;
    connections: Record<string, { main: Array<Array<{ node: string }>> }>;
  };
  const node = (name: string) => workflow.nodes.find((n) => n.name === name);
  const fileCall = {
    ...(JSON.parse(body) as Record<string, unknown>),
    responses: [
      {
        question: 'Tu archivo CSV',
        answer: {
          filename: 'ventas.csv',
          content_type: 'text/csv; charset=utf-8',
          size: 40,
          url: 'https://flujo.example.com/api/executions/x/files/y?expires=1&signature=z',
        },
      },
      { question: 'Incluir también', answer: [] },
    ],
  };
  const run = (name: string, input: unknown, named: Record<string, unknown> = {}) => {
    const code = String(node(name)?.parameters.jsCode);
    const $input = { first: () => ({ json: input }) };
    const $ = (other: string) => ({ first: () => ({ json: named[other] }) });
    return (
      new Function('$input', '$', code) as (
        i: unknown,
        d: unknown,
      ) => Array<{ json: Record<string, unknown> }>
    )($input, $);
  };

  it('chains webhook -> find the file -> download its signed link -> summarise -> post to callback_url', () => {
    let name = 'Flujo webhook';
    const order = [name];
    while (workflow.connections[name]) {
      name = workflow.connections[name]!.main[0]![0]!.node;
      order.push(name);
    }
    expect(order).toEqual([
      'Flujo webhook',
      'Find the file answer',
      'Download the file',
      'Summarise and build result',
      'Post result to Flujo',
    ]);
    expect(node('Download the file')?.parameters).toMatchObject({
      method: 'GET',
      url: '={{ $json.file.url }}',
    });
    expect(node('Post result to Flujo')?.parameters.url).toBe('={{ $json.body.callback_url }}');
  });

  it('finds the file answer and builds a contract result from the downloaded CSV', () => {
    const [found] = run('Find the file answer', { headers: {}, body: fileCall });
    expect(found?.json.file).toMatchObject({ filename: 'ventas.csv' });
    const [built] = run(
      'Summarise and build result',
      { data: 'ciudad;importe\nLima;10\nQuito;4\n' },
      { 'Find the file answer': found?.json },
    );
    expect(built?.json.result).toMatchObject({
      execution_id: '7a0f7c1e-2a4b-4c5d-8e9f-0a1b2c3d4e5f',
      secret_token: 'run-token',
      status: 'completed',
      output_type: 'text',
      output_data: { message: '**ventas.csv**: 2 filas y 2 columnas.', rows: 2, columns: 2 },
    });
  });

  it('stops when the call has no file answer', () => {
    expect(() => run('Find the file answer', { headers: {}, body: JSON.parse(body) })).toThrow(
      'This workflow expects a file answer',
    );
  });
});

describe('docs/webhook-contract.md Node.js snippet', () => {
  const markdown = readFileSync(new URL('docs/webhook-contract.md', root), 'utf8');
  const snippetWith = (name: string) =>
    [...markdown.matchAll(/```js\n([\s\S]*?)```/g)]
      .map((m) => m[1] ?? '')
      .find((code) => code.includes(`export function ${name}(`))
      ?.replace(/^import .*$/m, '')
      .replace('export function', 'function') ?? '';
  const source = snippetWith('verifyFlujoSignature');
  // Runs the documented snippet as written, with the imports it names passed in.
  const verify = new Function('createHmac', 'timingSafeEqual', `${source}\nreturn verifyFlujoSignature;`)(
    createHmac,
    timingSafeEqual,
  ) as (s: string, h: Record<string, string>, raw: string) => boolean;

  it('verifies a real signature and refuses a forged or stale one', () => {
    expect(verify(secret, signedHeaders(body), body)).toBe(true);
    expect(verify(secret, signedHeaders(body), body.replace('run-token', 'forged'))).toBe(false);
    const stale = {
      ...signedHeaders(body),
      'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 600),
    };
    expect(verify(secret, stale, body)).toBe(false);
    // During a rotation the header carries two signatures; either secret verifies.
    const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const both = signedHeaders(body);
    both['webhook-signature'] =
      `${signedHeaders(body, other)['webhook-signature']} ${both['webhook-signature']}`;
    expect(verify(secret, both, body)).toBe(true);
  });
});

describe('docs/webhook-contract.md header token snippet', () => {
  const markdown = readFileSync(new URL('docs/webhook-contract.md', root), 'utf8');
  const block = [...markdown.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .find((code) => code.includes('export function flujoHeaderToken('));
  const source = (block ?? '').replace(/^import .*$/m, '').replace('export function', 'function');
  const derive = new Function('createHmac', `${source}\nreturn flujoHeaderToken;`)(createHmac) as (
    s: string,
  ) => string;

  it('derives the same X-Flujo-Token value Flujo sends, and not the secret', () => {
    expect(block).toBeDefined();
    expect(derive(secret)).toBe(headerTokenFor(secret));
    // The demo services derive it on their own, as the docs tell any workflow service to.
    expect(flujoHeaderToken(secret)).toBe(headerTokenFor(secret));
    const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    expect(derive(other)).not.toBe(derive(secret));
    expect(secret).not.toContain(derive(secret));
  });
});
