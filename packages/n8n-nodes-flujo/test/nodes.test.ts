import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookHeaders } from '../../../src/server/providers/webhooks/signature';
import { escapeMarkdown } from '../lib/callback';
import { Flujo } from '../nodes/Flujo/Flujo.node';
import { FlujoTrigger, workflowFromSettings } from '../nodes/FlujoTrigger/FlujoTrigger.node';
import { executeContext, recordingServer, webhookContext } from './n8n-context';

const SECRET = `whsec_${Buffer.from('flujo-test-secret-32-bytes-long!').toString('base64')}`;

/** Flujo's side: the callback (answers as Flujo does) and a signed file link. */
let flujo: Awaited<ReturnType<typeof recordingServer>>;
const CSV = 'region,total\nnorte,12\n';
beforeAll(async () => {
  flujo = await recordingServer((req) => {
    if (req.url.startsWith('/api/executions/r1/files/')) return { status: 200, body: CSV, type: 'text/csv' };
    const body = JSON.parse(req.body) as { secret_token?: string; status?: string };
    if (body.secret_token !== 'tok')
      return { status: 401, body: { error: 'Unknown run', code: 'INVALID_TOKEN' } };
    return { status: 200, body: { ok: true, status: body.status === 'running' ? 'running' : body.status } };
  });
});
afterAll(() => flujo.close());

const run = () => ({
  executionId: 'r1',
  secretToken: 'tok',
  callbackUrl: `${flujo.url}/api/workflow-result`,
});
const sent = () => JSON.parse(flujo.requests.at(-1)!.body) as Record<string, unknown>;

describe('the Flujo node posts to the callback as the webhook contract says', () => {
  it('sends a text result with its line breaks, escaping what Markdown would format', async () => {
    const ctx = executeContext([{ json: {} }], {
      operation: 'sendResult',
      resultType: 'text',
      message: 'Total: 12 *units*\nsecond line',
      ...run(),
    });
    const [out] = await new Flujo().execute.call(ctx);
    expect(sent()).toEqual({
      execution_id: 'r1',
      secret_token: 'tok',
      status: 'completed',
      output_type: 'text',
      output_data: { message: 'Total: 12 \\*units\\*\nsecond line' },
    });
    expect(out).toEqual([{ json: { ok: true, status: 'completed' }, pairedItem: { item: 0 } }]);
    expect(escapeMarkdown('# a_b [c](d)')).toBe('\\# a\\_b \\[c\\](d)');
  });

  it('sends Markdown as written, a progress message, and a failure the customer reads', async () => {
    const node = new Flujo();
    await node.execute.call(
      executeContext([{ json: {} }], {
        operation: 'sendResult',
        resultType: 'markdown',
        message: '## Done\n- a',
        ...run(),
      }),
    );
    expect(sent()).toMatchObject({
      status: 'completed',
      output_type: 'text',
      output_data: { message: '## Done\n- a' },
    });
    await node.execute.call(
      executeContext([{ json: {} }], {
        operation: 'sendProgress',
        message: 'Reading your file...',
        ...run(),
      }),
    );
    expect(sent()).toEqual({
      execution_id: 'r1',
      secret_token: 'tok',
      status: 'running',
      output_data: { message: 'Reading your file...' },
    });
    await node.execute.call(
      executeContext([{ json: {} }], {
        operation: 'sendResult',
        resultType: 'failure',
        message: 'The CSV is empty',
        ...run(),
      }),
    );
    expect(sent()).toEqual({
      execution_id: 'r1',
      secret_token: 'tok',
      status: 'failed',
      error_message: 'The CSV is empty',
    });
  });

  it("sends a file from the item's binary data, named as asked or by the data's own name", async () => {
    const binary = {
      data: Buffer.from(CSV).toString('base64'),
      mimeType: 'text/csv',
      fileName: 'summary.csv',
    };
    await new Flujo().execute.call(
      executeContext([{ json: {}, binary: { data: binary } }], {
        operation: 'sendResult',
        resultType: 'file',
        binaryPropertyName: 'data',
        fileName: '',
        message: 'Your summary',
        ...run(),
      }),
    );
    expect(sent()).toEqual({
      execution_id: 'r1',
      secret_token: 'tok',
      status: 'completed',
      output_type: 'file',
      filename: 'summary.csv',
      file_data: Buffer.from(CSV).toString('base64'),
      output_data: { message: 'Your summary' },
    });
    const missing = executeContext([{ json: {} }], {
      operation: 'sendResult',
      resultType: 'file',
      binaryPropertyName: 'data',
      ...run(),
    });
    await expect(new Flujo().execute.call(missing)).rejects.toThrow("no binary field 'data'");
  });

  it("stops with Flujo's refusal, or passes it on as the item when set to continue on failure", async () => {
    const params = {
      operation: 'sendResult',
      resultType: 'text',
      message: 'x',
      ...run(),
      secretToken: 'wrong',
    };
    await expect(new Flujo().execute.call(executeContext([{ json: {} }], params))).rejects.toThrow(
      'Flujo refused the result (401): Unknown run',
    );
    const [out] = await new Flujo().execute.call(
      executeContext([{ json: {} }], params, { continueOnFail: true }),
    );
    expect(out).toEqual([
      { json: { error: 'Flujo refused the result (401): Unknown run' }, pairedItem: { item: 0 } },
    ]);
  });
});

describe("the Flujo node's test run and run reading, through the admin API", () => {
  let admin: Awaited<ReturnType<typeof recordingServer>>;
  beforeAll(async () => {
    admin = await recordingServer((req) => {
      if (!['Bearer flj_admin', 'Bearer oauth-admin'].includes(req.headers.authorization ?? ''))
        return { status: 401, body: { error: 'No valid API key', code: 'UNAUTHENTICATED' } };
      if (req.method === 'POST' && req.url === '/api/v1/admin/workflows/wf1/test-runs')
        return { status: 201, body: { id: 'r9', origin: 'test', status: 'completed', log: [] } };
      if (req.method === 'GET' && req.url === '/api/v1/admin/runs/r9')
        return { status: 200, body: { id: 'r9', log: [{ kind: 'call', outcome: 'accepted' }] } };
      return { status: 404, body: { error: 'Not found', code: 'NOT_FOUND' } };
    });
  });
  afterAll(() => admin.close());
  // The two ways to sign in: n8n's OAuth2 connection (the default; n8n adds its token) and an admin key.
  const WAYS = {
    oAuth2: (token = 'oauth-admin') => ({
      serverUrl: `${admin.url}/`,
      oauthTokenData: { access_token: token },
    }),
    apiKey: (key = 'flj_admin') => ({ baseUrl: `${admin.url}/`, apiKey: key }),
  };
  const credentials = () => WAYS.apiKey();

  it.each(['oAuth2', 'apiKey'] as const)(
    "signs in with %s, as the node's Authentication says, and a refusal stops the node",
    async (authentication) => {
      const [read] = await new Flujo().execute.call(
        executeContext(
          [{ json: {} }],
          { operation: 'getRun', runId: 'r9', ...(authentication === 'apiKey' ? { authentication } : {}) },
          { credentials: WAYS[authentication]() },
        ),
      );
      expect(read?.[0]?.json).toEqual({ id: 'r9', log: [{ kind: 'call', outcome: 'accepted' }] });
      expect(admin.requests.at(-1)?.headers.authorization).toBe(
        authentication === 'apiKey' ? 'Bearer flj_admin' : 'Bearer oauth-admin',
      );
      await expect(
        new Flujo().execute.call(
          executeContext(
            [{ json: {} }],
            { operation: 'getRun', runId: 'r9', authentication },
            { credentials: WAYS[authentication]('revoked') },
          ),
        ),
      ).rejects.toThrow('401');
    },
  );

  it('tests a workflow with its answers keyed by question id, then reads the run with its delivery log', async () => {
    const [tested] = await new Flujo().execute.call(
      executeContext(
        [{ json: {} }],
        {
          operation: 'testWorkflow',
          authentication: 'apiKey',
          workflowId: 'wf1',
          answers: '{"q1": "Ana", "q2": 7}',
          language: 'en',
          wait: 90,
        },
        { credentials: credentials() },
      ),
    );
    expect(JSON.parse(admin.requests.at(-1)!.body)).toEqual({
      language: 'en',
      responses: [
        { questionId: 'q1', answer: 'Ana' },
        { questionId: 'q2', answer: 7 },
      ],
      wait: 60,
    });
    expect(tested).toEqual([
      { json: { id: 'r9', origin: 'test', status: 'completed', log: [] }, pairedItem: { item: 0 } },
    ]);

    // A chat's test run: no answers are sent at all.
    await new Flujo().execute.call(
      executeContext(
        [{ json: {} }],
        { operation: 'testWorkflow', authentication: 'apiKey', workflowId: 'wf1', answers: {} },
        { credentials: credentials() },
      ),
    );
    expect(JSON.parse(admin.requests.at(-1)!.body)).toEqual({ language: 'es', wait: 30 });

    const [read] = await new Flujo().execute.call(
      executeContext(
        [{ json: {} }],
        { operation: 'getRun', authentication: 'apiKey', runId: 'r9' },
        { credentials: credentials() },
      ),
    );
    expect(admin.requests.at(-1)).toMatchObject({ method: 'GET', url: '/api/v1/admin/runs/r9' });
    expect(read?.[0]?.json).toEqual({ id: 'r9', log: [{ kind: 'call', outcome: 'accepted' }] });
  });

  it('refuses answers that are not a JSON object before calling Flujo, and stops on a refusal', async () => {
    const calls = admin.requests.length;
    for (const answers of ['["Ana"]', '"Ana"', '{not json']) {
      await expect(
        new Flujo().execute.call(
          executeContext(
            [{ json: {} }],
            { operation: 'testWorkflow', workflowId: 'wf1', answers },
            { credentials: credentials() },
          ),
        ),
      ).rejects.toThrow();
    }
    await expect(
      new Flujo().execute.call(
        executeContext(
          [{ json: {} }],
          { operation: 'testWorkflow', workflowId: ' ' },
          { credentials: credentials() },
        ),
      ),
    ).rejects.toThrow('Give the id of the Flujo workflow to test');
    expect(admin.requests.length).toBe(calls);

    const [out] = await new Flujo().execute.call(
      executeContext(
        [{ json: {} }],
        { operation: 'getRun', authentication: 'apiKey', runId: 'r9' },
        { credentials: WAYS.apiKey('flj_wrong'), continueOnFail: true },
      ),
    );
    expect(out?.[0]?.json).toMatchObject({ error: expect.stringContaining('401') });
  });
});

describe("the Flujo Trigger's call handling", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const staticData = () => ({
    flujoWorkflowId: 'w1',
    secret: SECRET,
    interactionType: 'survey',
    questions: [
      { id: 'company', type: 'text', question: { en: 'Company name', es: 'Nombre de la empresa' } },
      { id: 'sales', type: 'file', question: { en: 'Your CSV file', es: 'Tu archivo CSV' } },
    ],
  });
  const flujoCall = () => ({
    workflow_id: 'w1',
    execution_id: 'r1',
    user_id: 'u1',
    secret_token: 'tok',
    responses: [
      { question: 'Nombre de la empresa', answer: 'Acme' },
      {
        question: 'Tu archivo CSV',
        answer: {
          filename: 'ventas.csv',
          content_type: 'text/csv; charset=utf-8',
          size: CSV.length,
          url: `${flujo.url}/api/executions/r1/files/f1?expires=1&signature=s`,
        },
      },
    ],
    language: 'es',
    callback_url: `${flujo.url}/api/workflow-result`,
  });

  it('outputs a signed call as named answers, the run and the language, with the file as binary data', async () => {
    const body = flujoCall();
    const raw = JSON.stringify(body);
    const { context, refusal } = webhookContext(
      { body, rawBody: Buffer.from(raw), headers: webhookHeaders([SECRET], 'msg_r1', now(), raw) },
      staticData(),
    );
    const answer = await new FlujoTrigger().webhook.call(context);
    expect(refusal()).toBeUndefined();
    const item = answer.workflowData![0]![0]!;
    expect(item.json).toEqual({
      run: {
        id: 'r1',
        workflowId: 'w1',
        userId: 'u1',
        secretToken: 'tok',
        callbackUrl: `${flujo.url}/api/workflow-result`,
      },
      language: 'es',
      answers: {
        company: 'Acme',
        sales: {
          filename: 'ventas.csv',
          contentType: 'text/csv; charset=utf-8',
          size: CSV.length,
          binaryProperty: 'sales',
        },
      },
    });
    expect(item.binary?.sales).toMatchObject({ fileName: 'ventas.csv', mimeType: 'text/csv' });
    expect(Buffer.from(item.binary!.sales!.data, 'base64').toString()).toBe(CSV);
  });

  it('answers 401 to a call with a wrong signature and starts nothing', async () => {
    const body = flujoCall();
    const raw = JSON.stringify(body);
    const other = `whsec_${Buffer.from('someone-else-entirely-00000000000').toString('base64')}`;
    const data = staticData();
    // No workflow id: the node has nothing to re-read the secret from (the refresh is the other test's).
    delete (data as Partial<typeof data>).flujoWorkflowId;
    const { context, refusal } = webhookContext(
      { body, rawBody: Buffer.from(raw), headers: webhookHeaders([other], 'msg_r1', now(), raw) },
      data,
    );
    const answer = await new FlujoTrigger().webhook.call(context);
    expect(answer).toEqual({ noWebhookResponse: true });
    expect(refusal()).toEqual({ status: 401, body: { error: 'Invalid Flujo signature' } });
  });

  it('re-reads a rotated secret from Flujo once before refusing', async () => {
    const rotated = `whsec_${Buffer.from('the-new-secret-after-rotation-00').toString('base64')}`;
    const api = await recordingServer((req) =>
      req.url.endsWith('/secret')
        ? { status: 200, body: { secretToken: rotated } }
        : {
            status: 200,
            body: {
              id: 'w1',
              webhookUrl: 'https://n8n/x',
              isActive: true,
              interactionType: 'chatbot',
              surveyQuestions: [],
            },
          },
    );
    try {
      const body = { ...flujoCall(), responses: [{ question: '¿Para quién?', answer: 'Ana' }] };
      const raw = JSON.stringify(body);
      const data = staticData();
      const { context, refusal } = webhookContext(
        { body, rawBody: Buffer.from(raw), headers: webhookHeaders([rotated], 'msg_r1', now(), raw) },
        data,
        { baseUrl: `${api.url}/`, apiKey: 'flj_admin' },
        { authentication: 'apiKey' },
      );
      const answer = await new FlujoTrigger().webhook.call(context);
      expect(refusal()).toBeUndefined();
      expect(answer.workflowData![0]![0]!.json).toMatchObject({
        conversation: [{ assistant: '¿Para quién?', person: 'Ana' }],
      });
      expect(data.secret).toBe(rotated);
      expect(api.requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
        ['GET', '/api/v1/admin/workflows/w1', 'Bearer flj_admin'],
        ['GET', '/api/v1/admin/workflows/w1/secret', 'Bearer flj_admin'],
      ]);
    } finally {
      await api.close();
    }
  });
});

describe("the Flujo Trigger's workflow settings", () => {
  /** n8n's getNodeParameter: a setting hidden for the chosen interaction has no value, so the fallback comes. */
  const settings = (shown: Record<string, unknown>) => (name: string) => (name in shown ? shown[name] : '');

  it('makes a chat workflow from the chat settings, with no survey questions', () => {
    expect(
      workflowFromSettings(
        settings({
          interactionType: 'chatbot',
          nameEn: 'Meeting notes',
          nameEs: 'Notas de reunión',
          categoryEn: 'Productivity',
          categoryEs: 'Productividad',
          creditsPerExecution: 2,
          aiPrompt: 'Ask who met.',
          welcomeEn: 'Tell me about your meeting.',
          welcomeEs: '',
        }),
      ),
    ).toEqual({
      name: { en: 'Meeting notes', es: 'Notas de reunión' },
      description: null,
      category: { en: 'Productivity', es: 'Productividad' },
      creditsPerExecution: 2,
      interactionType: 'chatbot',
      surveyQuestions: [],
      aiPrompt: 'Ask who met.',
      // One language given: it serves both until the admin writes the other.
      welcomeMessage: { en: 'Tell me about your meeting.', es: 'Tell me about your meeting.' },
    });
  });

  it("makes a survey from the questions' JSON, as Flujo's create contract takes them", () => {
    const questions = [{ id: 'data', type: 'file', question: { en: 'CSV', es: 'CSV' }, accept: ['csv'] }];
    expect(
      workflowFromSettings(
        settings({
          interactionType: 'survey',
          nameEn: 'A',
          categoryEn: 'B',
          surveyQuestions: JSON.stringify(questions),
        }),
      ),
    ).toMatchObject({
      interactionType: 'survey',
      surveyQuestions: questions,
      creditsPerExecution: 1,
      name: { en: 'A', es: 'A' },
    });
  });
});
