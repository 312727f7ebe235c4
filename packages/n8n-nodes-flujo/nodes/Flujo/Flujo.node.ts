import { AUTHENTICATION_PROPERTY, credentialsFor, flujoApi } from '../../lib/api';
import { callbackBody, type ResultInput } from '../../lib/callback';
import type {
  ExecuteFunctions,
  JsonObject,
  NodeExecutionData,
  NodeTypeDescription,
} from '../../lib/n8n-types';

const show = (values: Record<string, unknown[]>) => ({ show: values });
const result = show({ operation: ['sendResult'] });
/** The operations that answer a run from inside it (the callback), and the ones that call Flujo's admin API. */
const CALLBACK = ['sendResult', 'sendProgress'];
const callback = show({ operation: CALLBACK });
const ADMIN = ['testWorkflow', 'getRun'];
const testing = show({ operation: ['testWorkflow'] });

/**
 * A test run's answers as the admin API takes them (`responses`): the node's JSON object, question id → answer,
 * as the Flujo Trigger outputs them. Anything but an object is refused before Flujo is called.
 */
export function responsesOf(answers: unknown): Array<{ questionId: string; answer: unknown }> {
  const parsed: unknown = typeof answers === 'string' ? (answers.trim() ? JSON.parse(answers) : {}) : answers;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('Answers must be a JSON object: question id → answer');
  }
  return Object.entries(parsed).map(([questionId, answer]) => ({ questionId, answer }));
}

/**
 * Test Workflow and Get Run: an admin's test run of a Flujo workflow (its real webhook, charged to no one,
 * counted nowhere) and a run read with its delivery log, through the credential's admin key (decision 165).
 */
async function callAdminApi(ctx: ExecuteFunctions, operation: string, item: number): Promise<JsonObject> {
  if (operation === 'getRun') {
    const runId = param(ctx, 'runId', item).trim();
    if (!runId) throw new Error('Give the id of the run to read');
    return flujoApi<JsonObject>(ctx, 'GET', `/api/v1/admin/runs/${encodeURIComponent(runId)}`);
  }
  const workflowId = param(ctx, 'workflowId', item).trim();
  if (!workflowId) throw new Error('Give the id of the Flujo workflow to test');
  const wait = Number(ctx.getNodeParameter('wait', item, 30));
  const responses = responsesOf(ctx.getNodeParameter('answers', item, '{}'));
  return flujoApi<JsonObject>(
    ctx,
    'POST',
    `/api/v1/admin/workflows/${encodeURIComponent(workflowId)}/test-runs`,
    {
      body: {
        language: param(ctx, 'language', item) === 'en' ? 'en' : 'es',
        // A chat takes no answers: its run opens pending, talked through with the public API.
        ...(responses.length > 0 ? { responses } : {}),
        wait: Number.isFinite(wait) ? Math.min(60, Math.max(0, Math.round(wait))) : 30,
      },
    },
  );
}

/** The run's fields as the Flujo Trigger outputs them (`run.id`, `run.secretToken`, `run.callbackUrl`). */
const fromTrigger = (field: string) => `={{ $('Flujo Trigger').item.json.run.${field} }}`;

const param = (ctx: ExecuteFunctions, name: string, item: number) => {
  const value = ctx.getNodeParameter(name, item, '');
  return typeof value === 'string' ? value : String(value ?? '');
};

/** What one item asks this node to send. */
async function inputOf(ctx: ExecuteFunctions, item: number): Promise<ResultInput> {
  const message = param(ctx, 'message', item);
  if (ctx.getNodeParameter('operation', item) === 'sendProgress') return { kind: 'progress', message };
  const kind = param(ctx, 'resultType', item);
  if (kind === 'file') {
    const property = param(ctx, 'binaryPropertyName', item) || 'data';
    const binary = ctx.helpers.assertBinaryData(item, property);
    const data = await ctx.helpers.getBinaryDataBuffer(item, property);
    const filename = param(ctx, 'fileName', item) || binary.fileName || 'result';
    return { kind: 'file', message, filename, data };
  }
  if (kind === 'failure') return { kind: 'failure', message };
  return { kind: kind === 'markdown' ? 'markdown' : 'text', message };
}

/**
 * "Flujo": sends a run's result (a text, Markdown, a file from binary data, or a failure the customer reads)
 * or a progress message to Flujo's callback, with the run's id and per-run token from the Flujo Trigger.
 * Flujo's answer (`{ ok, status }`) is the node's output; a refusal (400, 401, 409, 413) stops the workflow
 * with Flujo's message unless the node is set to continue on failure.
 */
export class Flujo {
  description: NodeTypeDescription = {
    displayName: 'Flujo',
    name: 'flujo',
    icon: 'file:flujo.svg',
    group: ['output'],
    version: 1,
    subtitle:
      '={{ { sendProgress: "Send progress", testWorkflow: "Test workflow", getRun: "Get run" }[$parameter["operation"]] ?? "Send result" }}',
    description: "Sends a run's result or progress back to Flujo, or tests a Flujo workflow",
    defaults: { name: 'Flujo' },
    inputs: ['main'],
    outputs: ['main'],
    // Only the admin API's operations use it: the callback is authorised by the run's own token.
    credentials: credentialsFor({ operation: ADMIN }),
    properties: [
      {
        displayName: 'Operation',
        name: 'operation',
        type: 'options',
        noDataExpression: true,
        default: 'sendResult',
        options: [
          { name: 'Send Result', value: 'sendResult', action: 'Send the result of a run' },
          { name: 'Send Progress', value: 'sendProgress', action: 'Send a progress message' },
          {
            name: 'Test Workflow',
            value: 'testWorkflow',
            action: 'Test a Flujo workflow',
            description: 'A run on its real webhook, charged to no one, answered with its delivery log',
          },
          {
            name: 'Get Run',
            value: 'getRun',
            action: 'Get a run with its delivery log',
          },
        ],
      },
      { ...AUTHENTICATION_PROPERTY, displayOptions: show({ operation: ADMIN }) },
      {
        displayName: 'Workflow ID',
        name: 'workflowId',
        type: 'string',
        default: '',
        required: true,
        description: "The Flujo workflow's id (its admin page, or the Flujo Trigger's output)",
        displayOptions: testing,
      },
      {
        displayName: 'Answers',
        name: 'answers',
        type: 'json',
        default: '{}',
        description:
          'A survey\'s answers as a JSON object, question id → answer (e.g. {"q1": "Ana"}); empty for a chat',
        displayOptions: testing,
      },
      {
        displayName: 'Language',
        name: 'language',
        type: 'options',
        default: 'es',
        options: [
          { name: 'Spanish', value: 'es' },
          { name: 'English', value: 'en' },
        ],
        displayOptions: testing,
      },
      {
        displayName: 'Wait (Seconds)',
        name: 'wait',
        type: 'number',
        default: 30,
        typeOptions: { minValue: 0, maxValue: 60 },
        description:
          'How long Flujo holds the answer for the result (0: answer at once, the run still working)',
        displayOptions: testing,
      },
      {
        displayName: 'Run ID',
        name: 'runId',
        type: 'string',
        default: '',
        required: true,
        description: 'The run to read (a test run\'s "id", or any run from Flujo\'s admin)',
        displayOptions: show({ operation: ['getRun'] }),
      },
      {
        displayName: 'Result',
        name: 'resultType',
        type: 'options',
        default: 'text',
        options: [
          { name: 'Text', value: 'text', description: 'Shown as you wrote it, line breaks included' },
          { name: 'Markdown', value: 'markdown', description: 'Headings, lists, links and tables' },
          {
            name: 'File',
            value: 'file',
            description: 'A file from binary data (pdf, csv, xlsx, txt, json, png, jpg)',
          },
          {
            name: 'Failure',
            value: 'failure',
            description: 'The run failed: the customer reads why and is refunded',
          },
        ],
        displayOptions: result,
      },
      {
        displayName: 'Message',
        name: 'message',
        type: 'string',
        typeOptions: { rows: 4 },
        default: '',
        description: 'What the customer reads (with a file: shown above the download)',
        displayOptions: callback,
      },
      {
        displayName: 'Input Binary Field',
        name: 'binaryPropertyName',
        type: 'string',
        default: 'data',
        description: 'The binary property holding the file',
        displayOptions: show({ operation: ['sendResult'], resultType: ['file'] }),
      },
      {
        displayName: 'File Name',
        name: 'fileName',
        type: 'string',
        default: '',
        placeholder: 'report.pdf',
        description:
          "The name the customer downloads; its extension decides the type (the binary data's own name when empty)",
        displayOptions: show({ operation: ['sendResult'], resultType: ['file'] }),
      },
      {
        displayName: 'Run ID',
        name: 'executionId',
        type: 'string',
        default: fromTrigger('id'),
        description: 'From the Flujo Trigger; change it only if you renamed that node',
        displayOptions: callback,
      },
      {
        displayName: 'Run Token',
        name: 'secretToken',
        type: 'string',
        default: fromTrigger('secretToken'),
        typeOptions: { password: true },
        displayOptions: callback,
      },
      {
        displayName: 'Callback URL',
        name: 'callbackUrl',
        type: 'string',
        default: fromTrigger('callbackUrl'),
        displayOptions: callback,
      },
    ],
  };

  async execute(this: ExecuteFunctions): Promise<NodeExecutionData[][]> {
    const items = this.getInputData();
    const out: NodeExecutionData[] = [];
    for (let i = 0; i < items.length; i++) {
      try {
        const operation = String(this.getNodeParameter('operation', i, 'sendResult'));
        if (ADMIN.includes(operation)) {
          out.push({ json: await callAdminApi(this, operation, i), pairedItem: { item: i } });
          continue;
        }
        const body = callbackBody(
          { executionId: param(this, 'executionId', i), secretToken: param(this, 'secretToken', i) },
          await inputOf(this, i),
        );
        const answer = (await this.helpers.httpRequest({
          method: 'POST',
          url: param(this, 'callbackUrl', i),
          body,
          json: true,
          returnFullResponse: true,
          ignoreHttpStatusErrors: true,
        })) as { statusCode: number; body: unknown };
        const response = (answer.body ?? {}) as JsonObject;
        if (answer.statusCode >= 300) {
          throw new Error(
            `Flujo refused the ${body.status === 'running' ? 'progress message' : 'result'} (${answer.statusCode}): ${String(response.error ?? '')}`,
          );
        }
        out.push({ json: response, pairedItem: { item: i } });
      } catch (error) {
        if (!this.continueOnFail()) throw error;
        out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
      }
    }
    return [out];
  }
}
