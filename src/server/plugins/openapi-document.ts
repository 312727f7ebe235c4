import { OPERATION_EXAMPLES } from './openapi-examples.js';

/*
 * The finishing pass over the OpenAPI document that @fastify/swagger builds from the routes' zod schemas:
 * operation ids, the security each route really applies, a description for every answer and the public API's
 * examples. Kept here rather than in each route file, because what authorises a route is decided by where it
 * is mounted (app.ts), and one table is easier to check against that than forty route options.
 */

/** The loose shape of the document this pass edits (openapi-types would be a dependency for four fields). */
interface Operation {
  operationId?: string;
  summary?: string;
  security?: Array<Record<string, string[]>>;
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, Response>;
}
interface MediaType {
  schema?: unknown;
  example?: unknown;
}
interface Response {
  description?: string;
  content?: Record<string, MediaType>;
}
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers?: Array<{ url: string; description?: string }>;
  components?: { securitySchemes?: Record<string, unknown>; schemas?: Record<string, unknown> };
  paths?: Record<string, Record<string, Operation>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export const SECURITY_SCHEMES = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'flujo_session',
    description:
      'The web app\'s session, set by POST /api/auth/signin (named "__Host-flujo_session" when the server ' +
      "is served over https). A state-changing request must come from the app's own origin.",
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A personal API key (flj_...), made under Account > API keys. Only /api/v1 and /mcp accept it, and ' +
      'they accept nothing else.',
  },
  runResultToken: {
    type: 'apiKey',
    in: 'header',
    name: 'secret_token',
    description:
      'The per-run token a workflow service received with the run. OpenAPI can only name a header, query ' +
      'or cookie: this token travels in the request body as the `secret_token` field (JSON or form field), ' +
      'beside `execution_id`. See docs/webhook-contract.md.',
  },
  stripeSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'Stripe-Signature',
    description: "Stripe's signature of the event, checked with the webhook's signing secret.",
  },
  webhookSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'webhook-signature',
    description:
      'The Standard Webhooks signature Flujo sends with every webhook call (`v1,<base64 HMAC-SHA256>` over ' +
      "`webhook-id.webhook-timestamp.body`, keyed by the workflow's secret), beside `webhook-id` and " +
      '`webhook-timestamp`. See docs/webhook-contract.md.',
  },
} as const;

type Scheme = keyof typeof SECURITY_SCHEMES;
type Access = 'none' | 'optionalSession' | 'session' | 'admin' | Exclude<Scheme, 'sessionCookie'>;

/** The operation ids of the routes that do not set their own, by "METHOD /path" as the document spells it. */
const OPERATION_IDS: Record<string, string> = {
  'POST /api/auth/signup': 'signUp',
  'POST /api/auth/signin': 'signIn',
  'POST /api/auth/signout': 'signOut',
  'POST /api/auth/password-reset/request': 'requestPasswordReset',
  'POST /api/auth/password-reset/confirm': 'confirmPasswordReset',
  'POST /api/auth/verify-email': 'verifyEmail',
  'POST /api/auth/verify-email/resend': 'resendVerificationEmail',
  'GET /api/auth/me': 'getSession',
  'PATCH /api/account/profile': 'updateProfile',
  'POST /api/account/password': 'changePassword',
  'POST /api/account/email': 'changeEmail',
  'POST /api/account/sessions/revoke-others': 'revokeOtherSessions',
  'GET /api/account/export': 'exportAccount',
  'POST /api/account/delete': 'deleteAccount',
  'POST /api/account/api-keys': 'createApiKey',
  'GET /api/account/api-keys': 'listApiKeys',
  'DELETE /api/account/api-keys/{id}': 'revokeApiKey',
  'GET /api/workflows/public': 'listPublicWorkflows',
  'GET /api/workflows/public/{id}': 'getPublicWorkflow',
  'DELETE /api/workflows/{id}': 'deleteWorkflow',
  'POST /api/executions/start': 'startExecution',
  'POST /api/executions/{id}/complete': 'completeExecution',
  'GET /api/executions': 'listExecutions',
  'GET /api/executions/{id}': 'getExecution',
  'GET /api/executions/{id}/events': 'streamExecutionEvents',
  'POST /api/chat': 'sendChatMessage',
  'GET /api/credits/transactions': 'listCreditTransactions',
  'GET /api/credits/plans': 'listCreditPlans',
  'POST /api/credits/purchase': 'purchaseCredits',
  'GET /api/credits/subscription': 'getSubscription',
  'POST /api/credits/subscription/cancel': 'cancelSubscription',
  'POST /api/payments/stripe/webhook': 'receiveStripeEvent',
  'POST /api/workflow-result': 'reportWorkflowResult',
  'GET /result/{executionId}': 'downloadResult',
  'GET /api/admin/stats': 'adminGetStats',
  'GET /api/admin/users': 'adminListUsers',
  'PATCH /api/admin/users/{id}': 'adminUpdateUser',
  'POST /api/admin/users/adjust-credits': 'adminAdjustCredits',
  'POST /api/admin/users/{id}/password-reset': 'adminSendPasswordReset',
  'GET /api/admin/workflows': 'adminListWorkflows',
  'POST /api/admin/workflows': 'adminCreateWorkflow',
  'GET /api/admin/workflows/{id}': 'adminGetWorkflow',
  'PATCH /api/admin/workflows/{id}': 'adminUpdateWorkflow',
  'GET /api/admin/workflows/{id}/secret': 'adminGetWorkflowSecret',
  'POST /api/admin/workflows/{id}/rotate-secret': 'adminRotateWorkflowSecret',
  'GET /api/admin/executions': 'adminListExecutions',
  'GET /api/admin/credits': 'adminListCreditTransactions',
  'GET /api/admin/config': 'adminListConfig',
  'PATCH /api/admin/config/{id}': 'adminUpdateConfig',
  'GET /api/admin/audit': 'adminListAudit',
  'GET /api/admin/emails': 'adminListEmails',
  'GET /api/admin/emails/{id}': 'adminGetEmail',
  'POST /api/admin/emails/{id}/retry': 'adminRetryEmail',
  'POST /api/admin/translate': 'adminTranslate',
  'GET /api/admin/insights': 'adminGetInsights',
  'GET /api/admin/exports/runs': 'adminExportRuns',
  'GET /api/admin/exports/ledger': 'adminExportLedger',
};

/** Routes anyone may call; a session changes nothing or is optional (an admin sees private workflows). */
const OPEN: Record<string, 'none' | 'optionalSession'> = {
  'POST /api/auth/signup': 'none',
  'POST /api/auth/signin': 'none',
  'POST /api/auth/password-reset/request': 'none',
  'POST /api/auth/password-reset/confirm': 'none',
  'POST /api/auth/verify-email': 'none',
  'POST /api/auth/signout': 'optionalSession',
  'GET /api/workflows/public': 'optionalSession',
  'GET /api/workflows/public/{id}': 'optionalSession',
};

/** What authorises a route, from where app.ts mounts it. */
function accessOf(method: string, path: string): Access {
  const key = `${method.toUpperCase()} ${path}`;
  if (OPEN[key]) return OPEN[key];
  if (path.startsWith('/api/v1/') || path === '/mcp') return 'apiKey';
  if (path === '/api/workflow-result') return 'runResultToken';
  if (path === '/api/payments/stripe/webhook') return 'stripeSignature';
  // The built-in demo services check the webhook signature, as a real workflow service does; no cookie.
  if (path.startsWith('/demo-hooks/')) return 'webhookSignature';
  if (path.startsWith('/api/admin/') || key === 'DELETE /api/workflows/{id}') return 'admin';
  return 'session';
}

function securityOf(access: Access): Array<Record<string, string[]>> {
  switch (access) {
    case 'none':
      return [];
    case 'optionalSession':
      return [{}, { sessionCookie: [] }];
    case 'session':
    case 'admin':
      return [{ sessionCookie: [] }];
    default:
      return [{ [access]: [] }];
  }
}

const UNAUTHENTICATED: Record<Access, string> = {
  none: 'Wrong credentials',
  optionalSession: 'Not signed in',
  session: 'Not signed in, or the session ended (a suspended account is signed out)',
  admin: 'Not signed in, or the session ended',
  apiKey:
    'No valid API key. Missing, malformed, unknown, revoked and expired keys and suspended accounts all get ' +
    'this same answer',
  runResultToken: 'Unknown run or wrong secret_token; nothing was changed',
  stripeSignature: 'Missing or wrong signature',
  webhookSignature: 'Missing, stale or wrong webhook signature',
};

const FORBIDDEN: Record<Access, string> = {
  none: 'Refused: a cross-site request, or the account is suspended',
  optionalSession: 'Refused: a cross-site request',
  session: 'Refused: a cross-site request, an unverified e-mail where one is required, or not allowed',
  admin: 'Not an administrator, or a cross-site request',
  apiKey: 'Not allowed for this key (a workflow that needs a verified e-mail, for instance)',
  runResultToken: 'Refused',
  stripeSignature: 'Refused',
  webhookSignature: 'Refused',
};

function describeStatus(status: string, access: Access): string {
  switch (status) {
    case '200':
      return 'Done: the answer';
    case '201':
      return 'Created';
    case '202':
      return 'Accepted: the rest happens in the background (an e-mail is sent where one applies)';
    case '400':
      return 'Invalid input: `details.fields` names each field and why; nothing was changed';
    case '401':
      return UNAUTHENTICATED[access];
    case '402':
      return 'Not enough credits (INSUFFICIENT_CREDITS) or past the API key monthly limit (SPENDING_LIMIT)';
    case '403':
      return FORBIDDEN[access];
    case '404':
      return 'Not found, or not yours: the two are not told apart';
    case '409':
      return 'Conflicts with the current state; `code` and `error` say which';
    case '413':
      return 'Too large';
    case '415':
      return 'Unsupported content type';
    case '429':
      return 'Too many requests: wait the seconds in the Retry-After header';
    case '502':
      return 'An outside service (payments, the language model, a workflow service) failed';
    case '503':
      return 'Not configured on this server, or the server is shutting down';
    default:
      return `HTTP ${status}`;
  }
}

/** Answers that are not JSON, so no zod schema describes them: the document gets them here. */
const STREAM = {
  description: 'Server-sent events: an `execution` event with the run on every change, until it ends',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};
const FILE = {
  description: 'The result file, as an attachment, with its own content type',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
};
const CSV = {
  description: 'A CSV file (UTF-8 with a byte order mark), oldest row first, streamed as an attachment',
  content: { 'text/csv': { schema: { type: 'string' } } },
};
const NON_JSON_ANSWERS: Record<string, Record<string, Response>> = {
  'GET /api/admin/exports/runs': { 200: CSV },
  'GET /api/admin/exports/ledger': { 200: CSV },
  'GET /api/executions/{id}/events': { 200: STREAM },
  'GET /api/v1/runs/{id}/events': { 200: STREAM },
  'GET /result/{executionId}': { 200: FILE },
  'GET /api/workflows/public': {
    304: { description: "Not modified: the If-None-Match ETag is still the catalogue's" },
  },
  'GET /api/v1/runs/{id}/result': { 200: FILE },
  'GET /mcp': {
    200: {
      description:
        'The standalone event stream: `notifications/tools/list_changed` whenever the catalogue changes',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    406: { description: 'The request does not accept text/event-stream' },
  },
  'POST /mcp': {
    200: {
      description:
        'The JSON-RPC answer as a server-sent event (`event: message`), after any progress notifications ' +
        'a tool sends',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    202: { description: 'A notification or answer from the client was accepted' },
  },
};

/** Extra refusals some routes give that their schema leaves out. */
const EXTRA_REFUSALS: Record<string, string[]> = {
  // The cross-site check runs before the route, on every state-changing cookie route.
  'POST /api/auth/signout': ['403'],
};

function camel(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

/** Finishes the generated document: see the file's comment. */
export function finishOpenApiDocument(doc: OpenApiDocument, publicUrl: string): OpenApiDocument {
  doc.servers = [{ url: publicUrl, description: 'This server' }];
  doc.components = {
    ...doc.components,
    securitySchemes: { ...doc.components?.securitySchemes, ...SECURITY_SCHEMES },
  };
  const paths: NonNullable<OpenApiDocument['paths']> = {};
  for (const [rawPath, item] of Object.entries(doc.paths ?? {})) {
    // Fastify serves a prefix's root with and without its slash; the document names it without.
    const path = rawPath.length > 1 ? rawPath.replace(/\/$/, '') : rawPath;
    paths[path] = { ...paths[path], ...item };
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const key = `${method.toUpperCase()} ${path}`;
      const access = accessOf(method, path);
      op.operationId ??= OPERATION_IDS[key] ?? camel(method, path);
      op.security = securityOf(access);
      op.responses = { ...NON_JSON_ANSWERS[key], ...op.responses };
      for (const status of EXTRA_REFUSALS[key] ?? []) {
        op.responses[status] ??= { description: '' };
      }
      const examples = OPERATION_EXAMPLES[op.operationId];
      for (const [status, response] of Object.entries(op.responses)) {
        if (!response.description || response.description === 'Default Response') {
          response.description = describeStatus(status, access);
        }
        if (status.startsWith('4') && !response.content) {
          response.content = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
        }
        const example = examples?.responses[status];
        const media = response.content?.['application/json'] ?? Object.values(response.content ?? {})[0];
        if (example !== undefined && media) media.example = example;
      }
      const body = op.requestBody?.content?.['application/json'];
      if (examples?.request !== undefined && body) body.example = examples.request;
    }
  }
  doc.paths = paths;
  doc.components.schemas = {
    ...doc.components.schemas,
    Error: {
      type: 'object',
      properties: {
        error: { type: 'string', description: "What went wrong, in the caller's language" },
        code: { type: 'string', description: 'A stable machine-readable code, e.g. VALIDATION_ERROR' },
        details: { description: 'Some codes carry details: fields, limit, retryAfter, required, balance' },
      },
      required: ['error', 'code'],
    },
  };
  normaliseNullable(doc.paths);
  return doc;
}

/**
 * Two spellings of "or null" that OpenAPI 3.0 reads differently from zod. "unknown or null" comes out as
 * `{ nullable: true }` with no type, which 3.0 does not allow (nullable qualifies a type); without a type the
 * schema already admits null, so the flag goes. A nullable enum must list null among its values (3.0.3), or
 * validators refuse a null.
 */
function normaliseNullable(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) normaliseNullable(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.nullable === true && record.type === undefined && record.$ref === undefined) {
    delete record.nullable;
  }
  if (record.nullable === true && Array.isArray(record.enum) && !record.enum.includes(null)) {
    record.enum = [...(record.enum as unknown[]), null];
  }
  for (const [key, value] of Object.entries(record)) if (key !== 'example') normaliseNullable(value);
}
