/*
 * The parts of n8n's node interface (n8n-workflow) these nodes use, declared here so that the package builds
 * and tests without n8n installed (decision 153). They mirror n8n-workflow 1.x; n8n itself never checks types
 * at run time, and the end-to-end test loads the built package into a real n8n of the declared release.
 */

export type JsonObject = { [key: string]: unknown };

export interface BinaryData {
  data: string;
  mimeType: string;
  fileName?: string;
  fileSize?: string;
  [key: string]: unknown;
}

export interface NodeExecutionData {
  json: JsonObject;
  binary?: Record<string, BinaryData>;
  pairedItem?: { item: number };
}

export interface HttpRequestOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  qs?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  json?: boolean;
  encoding?: 'arraybuffer' | 'json' | 'text';
  returnFullResponse?: boolean;
  ignoreHttpStatusErrors?: boolean;
}

export interface FullResponse {
  body: unknown;
  headers: Record<string, string | undefined>;
  statusCode: number;
}

export interface RequestHelpers {
  // n8n answers whatever the response parsed into.
  httpRequest(options: HttpRequestOptions): Promise<unknown>;
  /** The same, signed in as the named credential type says (for OAuth2: its token, refreshed on a 401). */
  httpRequestWithAuthentication(
    this: CredentialContext,
    credentialsType: string,
    options: HttpRequestOptions,
  ): Promise<unknown>;
}

export interface BinaryHelpers {
  prepareBinaryData(data: Buffer, fileName?: string, mimeType?: string): Promise<BinaryData>;
  getBinaryDataBuffer(itemIndex: number, propertyName: string): Promise<Buffer>;
  assertBinaryData(itemIndex: number, propertyName: string): BinaryData;
}

export interface CredentialContext {
  getCredentials(type: string): Promise<JsonObject>;
  // An action's is (name, itemIndex, fallback); a trigger's hooks' and webhook's (name, fallback).
  getNodeParameter(name: string, ...rest: unknown[]): unknown;
  helpers: RequestHelpers;
}

export interface HookFunctions extends CredentialContext {
  getNodeWebhookUrl(name: string): string | undefined;
  getWorkflowStaticData(type: 'node' | 'global'): JsonObject;
  getNodeParameter(name: string, fallback?: unknown): unknown;
}

export interface WebhookRequest {
  body: unknown;
  rawBody?: Buffer;
  headers: Record<string, string | string[] | undefined>;
}

export interface WebhookResponse {
  status(code: number): { json(body: unknown): void };
}

export interface WebhookFunctions extends CredentialContext {
  getRequestObject(): WebhookRequest;
  getResponseObject(): WebhookResponse;
  getWorkflowStaticData(type: 'node' | 'global'): JsonObject;
  getNodeParameter(name: string, fallback?: unknown): unknown;
  helpers: RequestHelpers & Pick<BinaryHelpers, 'prepareBinaryData'>;
}

export interface ExecuteFunctions extends CredentialContext {
  getInputData(): NodeExecutionData[];
  getNodeParameter(name: string, itemIndex: number, fallback?: unknown): unknown;
  continueOnFail(): boolean;
  helpers: RequestHelpers & BinaryHelpers;
}

export interface WebhookResponseData {
  workflowData?: NodeExecutionData[][];
  noWebhookResponse?: boolean;
}

export interface NodePropertyOption {
  name: string;
  value: string | number | boolean;
  description?: string;
  action?: string;
}

export interface NodeProperty {
  displayName: string;
  name: string;
  type: 'string' | 'number' | 'boolean' | 'options' | 'json' | 'notice' | 'collection' | 'hidden';
  default: unknown;
  description?: string;
  hint?: string;
  placeholder?: string;
  required?: boolean;
  noDataExpression?: boolean;
  options?: NodePropertyOption[] | NodeProperty[];
  typeOptions?: JsonObject;
  displayOptions?: { show?: Record<string, unknown[]>; hide?: Record<string, unknown[]> };
}

export interface NodeTypeDescription {
  displayName: string;
  name: string;
  icon: string;
  group: string[];
  version: number;
  subtitle?: string;
  description: string;
  defaults: { name: string };
  inputs: string[];
  outputs: string[];
  credentials?: Array<{
    name: string;
    required: boolean;
    displayOptions?: { show?: Record<string, unknown[]> };
  }>;
  webhooks?: Array<{ name: string; httpMethod: string; responseMode: string; path: string }>;
  properties: NodeProperty[];
  usableAsTool?: boolean;
}
