import type { TApiKey, TApiKeyCreate, TApiKeyCreated } from '#shared/contract/api-keys.js';
import type { ErrorCode, TErrorBody } from '#shared/contract/errors.js';
import { type ErrorParams, type ErrorTextKey, errorText } from '#shared/i18n/errors.js';
import type { z } from 'zod';
import type {
  TApiChatReply,
  TApiMe,
  TApiRun,
  TApiRunCreate,
  TApiWorkflow,
  ZApiWorkflowList,
} from '#shared/contract/public-api.js';

/*
 * Examples for the public API's operations in the OpenAPI document. Typed by the contract so that a change of
 * a field breaks the build here, and checked against the document's schemas by the lint test.
 */

const WORKFLOW_ID = '3f1c2a9e-7b4d-4e8a-9c1f-5d6e7f8a9b0c';
const RUN_ID = '8b2d4f6a-1c3e-4a5b-8d7f-9e0a1b2c3d4e';
const KEY_ID = 'c4e6a8b0-2d4f-4a6c-8e0a-2b4d6f8a0c2e';
const USER_ID = '5a7c9e1b-3d5f-4b7d-9f1b-3d5f7b9d1f3a';

const workflowExample: TApiWorkflow = {
  id: WORKFLOW_ID,
  name: 'Customer feedback to CSV',
  description: 'Turns one customer answer into a CSV row.',
  category: 'Productivity',
  language: 'en',
  interactionType: 'survey',
  creditsPerExecution: 1,
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Customer name', maxLength: 2000 },
      score: { type: 'number', title: 'Score (0-10)' },
    },
    required: ['name', 'score'],
    additionalProperties: false,
  },
};

const workflowList: z.infer<typeof ZApiWorkflowList> = { workflows: [workflowExample] };

const runCreate: TApiRunCreate = {
  workflowId: WORKFLOW_ID,
  answers: { name: 'ACME', score: 9 },
  wait: 30,
  lang: 'en',
};

const runBase: TApiRun = {
  id: RUN_ID,
  workflowId: WORKFLOW_ID,
  status: 'running',
  creditsUsed: 1,
  creditsRefunded: 0,
  outputType: null,
  outputData: null,
  resultUrl: null,
  outputUrl: null,
  outputFilename: null,
  outputSize: null,
  progressMessage: 'Writing the row',
  errorCode: null,
  workflowMessage: null,
  errorMessage: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  completedAt: null,
};

const runCompletedExample: TApiRun = {
  ...runBase,
  status: 'completed',
  outputType: 'file',
  resultUrl: `https://flujo.example/api/v1/runs/${RUN_ID}/result`,
  outputFilename: 'feedback.csv',
  outputSize: 42,
  progressMessage: null,
  completedAt: '2026-11-24T10:00:04.000Z',
};

/** The chat message operation's answer; its route carries it in the answer's schema rather than here. */
export const chatReplyExample: TApiChatReply = {
  content: 'Got it. How many guests are coming?',
  done: false,
  remaining: 39,
  run: {
    ...runBase,
    id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    workflowId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    status: 'pending',
    progressMessage: null,
  },
};

const me: TApiMe = { userId: USER_ID, balance: 41, spentThisMonth: 9, monthlyCreditLimit: 100 };

const keyCreate: TApiKeyCreate = {
  name: 'Nightly report script',
  expiresAt: '2027-06-30T00:00:00Z',
  monthlyCreditLimit: 100,
};

const key: TApiKey = {
  id: KEY_ID,
  name: 'Nightly report script',
  prefix: 'flj_Q2x9Lm3p',
  createdAt: '2026-11-24T09:00:00.000Z',
  lastUsedAt: '2026-11-24T10:00:00.000Z',
  expiresAt: '2027-06-30T00:00:00.000Z',
  monthlyCreditLimit: 100,
  spentThisMonth: 9,
  scope: 'user',
};

const keyCreated: TApiKeyCreated = {
  ...key,
  lastUsedAt: null,
  spentThisMonth: 0,
  key: 'flj_Q2x9Lm3pVb7Rt1Yw5Zk8Hd2Nf6Gs4Jc0',
};

/** An error answer as the server words it in English: its text comes from the catalogue, by code and case. */
function error<C extends ErrorCode>(
  code: C,
  key: ErrorTextKey<C>,
  params?: ErrorParams,
  details?: unknown,
): TErrorBody {
  return {
    error: errorText('en', code, key, params),
    code,
    key,
    ...(params === undefined ? {} : { params }),
    ...(details === undefined ? {} : { details }),
  };
}

const unauthenticated = error('UNAUTHENTICATED', 'apiKeyRequired');

/** Per operationId: the request body's example and one example per answered status. */
export const OPERATION_EXAMPLES: Record<string, { request?: unknown; responses: Record<string, unknown> }> = {
  getMe: { responses: { 200: me, 401: unauthenticated } },
  listWorkflows: {
    responses: {
      200: workflowList,
      401: unauthenticated,
      429: error('RATE_LIMITED', 'default', undefined, { retryAfter: 12 }),
    },
  },
  getWorkflow: {
    responses: { 200: workflowExample, 404: error('NOT_FOUND', 'workflow') },
  },
  createRun: {
    request: runCreate,
    responses: {
      201: runCompletedExample,
      400: error(
        'VALIDATION_ERROR',
        'invalidAnswers',
        { problems: '"Score" (answers.score): Enter a number' },
        { fields: [{ field: 'answers.score', message: 'Enter a number', key: 'answerNotNumber' }] },
      ),
      402: error('SPENDING_LIMIT', 'default'),
    },
  },
  getRun: { responses: { 200: runBase, 404: error('NOT_FOUND', 'execution') } },
  createApiKey: {
    request: keyCreate,
    responses: {
      201: keyCreated,
      409: error('CONFLICT', 'tooManyApiKeys', { max: 20 }),
    },
  },
  listApiKeys: { responses: { 200: { keys: [key] } } },
  revokeApiKey: { responses: { 200: { ok: true }, 404: error('NOT_FOUND', 'apiKey') } },
  mcp: {
    request: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    responses: {
      // The answer travels as one server-sent event.
      200: `event: message\ndata: ${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        result: {
          tools: [
            {
              name: 'customer_feedback_to_csv',
              title: 'Customer feedback to CSV',
              description: 'Turns one customer answer into a CSV row. 1 credit per run.',
              inputSchema: workflowExample.inputSchema,
            },
          ],
        },
      })}\n\n`,
    },
  },
};
